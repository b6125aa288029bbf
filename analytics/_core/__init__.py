"""Shared internals of the analytics library: errors, the bootstrap, argument checks, style.

Private to :mod:`analytics`: the subpackages import these modules directly; users import
:class:`~analytics.AnnotationDataError` from :mod:`analytics`.
"""

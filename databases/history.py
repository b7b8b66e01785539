"""Moved to :mod:`tiersolve.history`;
importing this name still works, with a DeprecationWarning."""

from tiersolve._moved import alias_moved_module

alias_moved_module(__name__)

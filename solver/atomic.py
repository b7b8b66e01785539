"""Low-level numba intrinsics the solvers need for lean, threaded tiers.

* ``atomic_add(array, index, value)``: adds to one element atomically and returns its
  old value: threads take the next range of work from a shared cursor.
* ``store_release(array, index, value)`` and ``load_acquire(array, index)``: a loopy
  tier writes a position's remoteness first and then publishes its value with a
  release store; a thread that reads the value with an acquire load and sees the new
  value also sees the new remoteness. (On x86 both are plain moves: they only keep
  the compiler from reordering.)
* ``load_at(address, index, like)``: reads element ``index`` of an array given by its
  address (``array.ctypes.data``), typed like ``like``. Solved child tiers are passed
  to the kernels as a table of addresses, so no tier is ever copied into a window;
  the Python side keeps each array alive while a kernel may read it.

>>> import numpy as np
>>> cursor = np.zeros(1, dtype=np.int64)
>>> int(_take(cursor, 5)), int(_take(cursor, 5)), cursor.tolist()
(0, 5, [10])
>>> values = np.zeros(2, dtype=np.uint8)
>>> int(_publish(values, 1, 4)), values.tolist()
(4, [0, 4])
>>> records = np.array([7, 9, 11], dtype=np.uint16)
>>> int(_load(records.ctypes.data, 2, records[:1]))
11
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tiersolve.jit import jit


@intrinsic
def atomic_add(typingctx, array, index, value):
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        pointer = _element_pointer(context, builder, array_type, args[0], args[1])
        amount = context.cast(builder, args[2], signature.args[2], array_type.dtype)
        return builder.atomic_rmw("add", pointer, amount, "acq_rel")

    return array.dtype(array, index, value), codegen


def _element_pointer(context, builder, array_type, array, index):
    view = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer(context, builder, array_type, view, [index], wraparound=False)


@intrinsic
def store_release(typingctx, array, index, value):
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        pointer = _element_pointer(context, builder, array_type, args[0], args[1])
        element = context.cast(builder, args[2], signature.args[2], array_type.dtype)
        builder.store_atomic(element, pointer, "release",
                                     align=context.get_abi_sizeof(context.get_value_type(array_type.dtype)))
        return context.get_dummy_value()

    return types.none(array, index, value), codegen


@intrinsic
def load_acquire(typingctx, array, index):
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        pointer = _element_pointer(context, builder, array_type, args[0], args[1])
        return builder.load_atomic(pointer, "acquire",
                                   align=context.get_abi_sizeof(context.get_value_type(array_type.dtype)))

    return array.dtype(array, index), codegen


@intrinsic
def load_at(typingctx, address, index, like):
    """``like`` is any value of the element type (only its type is used)."""
    def codegen(context, builder, signature, args):
        element = context.get_value_type(signature.args[2])
        pointer = builder.inttoptr(args[0], element.as_pointer())
        return builder.load(builder.gep(pointer, [args[1]]))

    return like(address, index, like), codegen


@jit
def _take(cursor, amount):
    """Doctest helper."""
    return atomic_add(cursor, 0, amount)


@jit
def _publish(values, index, value):
    """Doctest helper."""
    store_release(values, index, value)
    return load_acquire(values, index)


@jit
def _load(address, index, like):
    """Doctest helper: ``like`` is a one-element array of the element type."""
    return load_at(address, index, like[0])


def address_of(array: np.ndarray) -> int:
    """The address ``load_at`` reads ``array`` through (it must be C-contiguous)."""
    if not array.flags.c_contiguous:
        raise ValueError("load_at needs a C-contiguous array")
    return int(array.ctypes.data)

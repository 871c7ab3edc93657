"""PyTorch soft-DTW loss over WarpLab's engine: ``SoftDTWLoss`` and ``soft_dtw_loss``.

Import it as ``warplab.torch`` (``import warplab`` never imports torch; this module does, on
first use, and says so when torch is missing)::

    from warplab.torch import SoftDTWLoss
    loss = SoftDTWLoss(gamma=0.1)(prediction, target)   # (batch, length[, channels]) tensors
    loss.backward()

How the tensors reach the engine, honestly: through host memory. The engine's batched soft-DTW
value and gradient (``warplab.soft_dtw``, Cuturi & Blondel's forward and backward recursions,
the pairs spread over all CPU cores, the GIL released) take series from host memory, as float32
samples with the recursions accumulated in float64. A CUDA tensor is therefore copied to the
host (``.cpu()``; a CPU tensor is viewed without a copy through the NumPy array interface
where it is already contiguous), and the gradient is copied back to the tensor's device and
dtype. No DLPack / ``__cuda_array_interface__`` exchange is made: the engine has no entry that
takes device pointers for soft-DTW, so a zero-copy hand-over would have nothing to hand to.
The figures and the gradient are those of ``warplab.soft_dtw`` for the same pairs.
"""
import numpy as _np

import warplab as _warplab


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("warplab.torch needs PyTorch (pip install torch, or Debian's python3-torch)") from e
    return torch


def _host_array(t, name):
    """A detached tensor as a C-contiguous float64 NumPy array (batch, length[, channels])."""
    torch = _torch()
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: give a torch.Tensor, not {type(t).__name__}")
    if not t.is_floating_point():
        raise TypeError(f"{name}: dtype {t.dtype} is not a floating-point dtype")
    if t.dim() not in (2, 3):
        raise ValueError(f"{name}: give a batch of series, (batch, length) or (batch, length, channels), "
                         f"got {t.dim()} dimensions")
    a = t.detach().to("cpu").contiguous().numpy()
    return _np.ascontiguousarray(a, dtype=_np.float64)


def _function():
    torch = _torch()

    class SoftDTWFunction(torch.autograd.Function):
        """soft-DTW(x[i], y[i]) per pair; backward gives d/dx by the engine and d/dy by the
        same recursion with the pair swapped (soft-DTW is symmetric in its arguments)."""

        @staticmethod
        def forward(ctx, x, y, gamma):
            xs, ys = _host_array(x, "x"), _host_array(y, "y")
            if xs.shape[0] != ys.shape[0]:
                raise ValueError(f"y: holds {ys.shape[0]} series, x {xs.shape[0]} (pairs x[i], y[i])")
            need_x, need_y = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
            values, gx = _warplab.soft_dtw(xs, ys, gamma, gradient=True)
            gy = _warplab.soft_dtw(ys, xs, gamma, gradient=True)[1] if need_y else None
            ctx.grads = (torch.from_numpy(_np.asarray(gx).reshape(xs.shape)).to(device=x.device, dtype=x.dtype)
                         if need_x else None,
                         torch.from_numpy(_np.asarray(gy).reshape(ys.shape)).to(device=y.device, dtype=y.dtype)
                         if need_y else None)
            return torch.from_numpy(_np.asarray(values)).to(device=x.device, dtype=x.dtype)

        @staticmethod
        def backward(ctx, grad_output):
            gx, gy = ctx.grads
            shape = (-1,) + (1,) * (gx.dim() - 1 if gx is not None else gy.dim() - 1)
            scale = grad_output.reshape(shape)
            return (gx * scale if gx is not None else None, gy * scale if gy is not None else None, None)

    return SoftDTWFunction


_FUNCTION = None


def soft_dtw_loss(x, y, gamma=1.0, reduction="mean"):
    """Soft-DTW between the pairs (x[i], y[i]) of two batches, differentiable in both.

    Parameters
    ----------
    x, y : torch.Tensor
        (batch, length) or (batch, length, channels), floating point, on any device; the two
        batches may have different lengths.
    gamma : float
        Smoothing, > 0 (soft-DTW tends to DTW as gamma -> 0).
    reduction : {"mean", "sum", "none"}
        The batch's values averaged, summed, or returned per pair.

    Returns
    -------
    torch.Tensor on x's device and dtype. Computed by the engine from host memory (the module's
    docstring says how tensors travel).
    """
    global _FUNCTION
    if _FUNCTION is None:
        _FUNCTION = _function()
    if not gamma > 0:
        raise ValueError("gamma: must be > 0")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"reduction: unknown reduction '{reduction}' (mean, sum, none)")
    values = _FUNCTION.apply(x, y, float(gamma))
    if reduction == "mean":
        return values.mean()
    if reduction == "sum":
        return values.sum()
    return values


def __getattr__(name):
    # SoftDTWLoss is a torch.nn.Module, so it is made when first asked for (torch imported then).
    if name == "SoftDTWLoss":
        torch = _torch()

        class SoftDTWLoss(torch.nn.Module):
            """``torch.nn.Module`` form of :func:`soft_dtw_loss`: ``SoftDTWLoss(gamma=1.0,
            reduction="mean")(x, y)``."""

            def __init__(self, gamma=1.0, reduction="mean"):
                super().__init__()
                self.gamma, self.reduction = float(gamma), reduction

            def forward(self, x, y):
                return soft_dtw_loss(x, y, self.gamma, self.reduction)

        globals()["SoftDTWLoss"] = SoftDTWLoss
        return SoftDTWLoss
    raise AttributeError(f"module 'warplab.torch' has no attribute '{name}'")

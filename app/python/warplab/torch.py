"""PyTorch soft-DTW loss over WarpLab's engine: ``SoftDTWLoss`` and ``soft_dtw_loss``.

Import it as ``warplab.torch`` (``import warplab`` never imports torch; this module does, on
first use, and says so when torch is missing)::

    from warplab.torch import SoftDTWLoss
    loss = SoftDTWLoss(gamma=0.1)(prediction, target)   # (batch, length[, channels]) tensors
    loss.backward()

How the tensors reach the engine:

- CUDA tensors stay on their GPU. Their device pointers go to the engine's CUDA soft-DTW
  forward and backward kernels through ``__cuda_array_interface__`` (``warplab._warplab.
  soft_dtw_device``), on the tensors' current stream; values and gradients are written into
  tensors allocated there. Nothing passes through host memory. The kernels read float32
  samples: a float32 contiguous tensor is read as it is, a float64 one is converted on the
  device first. float32 univariate batches use the fp32 kernels (within 1e-5 of the fp64 value,
  relative, and 1e-3 of the largest gradient); float64 or multichannel batches the fp64 ones
  (the host path's recursions, to rounding).
- CPU tensors go through ``warplab.soft_dtw`` (Cuturi & Blondel's forward and backward
  recursions in float64, the pairs spread over all CPU cores, the GIL released), viewed without
  a copy where they are float32 and contiguous.

The engine needs a CUDA build for the first (``warplab.DeviceError`` says so otherwise).
"""
import numpy as _np

import warplab as _warplab


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("warplab.torch needs PyTorch (pip install torch, or Debian's python3-torch)") from e
    return torch


def _check(t, name):
    torch = _torch()
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: give a torch.Tensor, not {type(t).__name__}")
    if not t.is_floating_point():
        raise TypeError(f"{name}: dtype {t.dtype} is not a floating-point dtype")
    if t.dim() not in (2, 3):
        raise ValueError(f"{name}: give a batch of series, (batch, length) or (batch, length, channels), "
                         f"got {t.dim()} dimensions")


def _host_array(t, name):
    """A detached CPU tensor as a C-contiguous NumPy array (batch, length[, channels]): float32
    as it is (the engine reads it in place), other dtypes as float64."""
    a = t.detach().to("cpu").contiguous().numpy()
    return a if a.dtype == _np.float32 else _np.ascontiguousarray(a, dtype=_np.float64)


def _device_pass(a, b, gamma, cost="sq"):
    """soft-DTW(a[i], b[i]) and d/da on a's GPU, in place: (values float64, gradient of a's shape)."""
    torch = _torch()
    af = a.detach().to(torch.float32).contiguous()   # no copy for a float32 contiguous tensor
    bf = b.detach().to(device=a.device, dtype=torch.float32).contiguous()
    for t, name in ((af, "x"), (bf, "y")):
        if not bool(torch.isfinite(t).all()):
            raise ValueError(f"{name}: holds NaN or infinite samples")
    fp32 = a.dtype == torch.float32 and af.dim() == 2
    values = torch.empty(af.shape[0], dtype=torch.float64, device=a.device)
    grad = torch.empty(af.shape, dtype=torch.float32 if fp32 else torch.float64, device=a.device)
    stream = torch.cuda.current_stream(a.device).cuda_stream
    _warplab._warplab.soft_dtw_device(af, bf, values, grad, float(gamma), cost, fp32, a.device.index or 0, stream)
    return values, grad


def _function():
    torch = _torch()

    class SoftDTWFunction(torch.autograd.Function):
        """soft-DTW(x[i], y[i]) per pair; backward gives d/dx by the engine and d/dy by the
        same recursion with the pair swapped (soft-DTW is symmetric in its arguments)."""

        @staticmethod
        def forward(ctx, x, y, gamma):
            _check(x, "x")
            _check(y, "y")
            if x.shape[0] != y.shape[0]:
                raise ValueError(f"y: holds {y.shape[0]} series, x {x.shape[0]} (pairs x[i], y[i])")
            need_x, need_y = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
            if x.is_cuda:
                if y.device != x.device:
                    raise ValueError(f"y: on {y.device}, x on {x.device} (give both on one device)")
                values, gx = _device_pass(x, y, gamma)
                gy = _device_pass(y, x, gamma)[1] if need_y else None
                ctx.grads = (gx.to(x.dtype) if need_x else None, gy.to(y.dtype) if need_y else None)
                return values.to(x.dtype)
            xs, ys = _host_array(x, "x"), _host_array(y, "y")
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
    torch.Tensor on x's device and dtype. CUDA tensors are computed on their GPU in place, CPU
    tensors on the CPU (the module's docstring says how tensors travel).
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

"""warplab.torch: the soft-DTW loss as a torch.autograd.Function, its gradient checked against
finite differences (torch.autograd.gradcheck, float64) on CPU tensors and, where a GPU is
visible to torch, on CUDA tensors, which the engine's CUDA kernels read in place (no host
path is taken) and whose values and gradients agree with the host path's; values equal
warplab.soft_dtw. Skips without PyTorch."""
import numpy as np
import pytest

import warplab

try:
    import torch
    from warplab.torch import SoftDTWLoss, soft_dtw_loss
except ImportError:  # each test is reported as skipped, with the reason
    torch = None

pytestmark = pytest.mark.skipif(torch is None,
                                reason="PyTorch is not installed here (warplab.torch needs it; the GPU machine has it)")

# The engine reads float32 samples (its recursions accumulate in float64), so the finite
# differences use a step far above float32's resolution, on float32-representable points.
EPS, ATOL, RTOL = 1e-3, 1e-4, 1e-3
HOST_SOFT_DTW = warplab.soft_dtw  # the host path, kept for tests that refuse it to the loss


def batch(shape, seed, device="cpu"):
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32).astype(np.float64)
    return torch.tensor(x, dtype=torch.float64, device=device, requires_grad=True)


def test_import_warplab_does_not_import_torch():
    import subprocess
    import sys
    code = "import sys, warplab; assert 'torch' not in sys.modules, 'torch imported'; print('ok')"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "ok"


def test_values_equal_the_engine():
    x, y = batch((4, 20), 0), batch((4, 17), 1)
    values = soft_dtw_loss(x, y, gamma=0.5, reduction="none")
    expected = warplab.soft_dtw(x.detach().numpy(), y.detach().numpy(), gamma=0.5, gradient=False)
    np.testing.assert_array_equal(values.detach().numpy(), expected)
    assert values.dtype == torch.float64
    assert soft_dtw_loss(x, y, 0.5).item() == pytest.approx(expected.mean(), rel=1e-15)
    assert SoftDTWLoss(gamma=0.5, reduction="sum")(x, y).item() == pytest.approx(expected.sum(), rel=1e-15)


@pytest.mark.parametrize("shape_x,shape_y", [((3, 12), (3, 9)), ((2, 10, 3), (2, 8, 3))])
def test_gradcheck_cpu(shape_x, shape_y):
    x, y = batch(shape_x, 2), batch(shape_y, 3)
    assert torch.autograd.gradcheck(lambda a, b: soft_dtw_loss(a, b, 1.0, "none"), (x, y), eps=EPS, atol=ATOL,
                                    rtol=RTOL)


def test_gradient_equals_the_engine_and_only_where_asked():
    x, y = batch((3, 15), 4), batch((3, 11), 5)
    y.requires_grad_(False)
    soft_dtw_loss(x, y, 0.3, "sum").backward()
    _, expected = warplab.soft_dtw(x.detach().numpy(), y.numpy(), gamma=0.3)
    np.testing.assert_array_equal(x.grad.numpy(), expected)
    assert y.grad is None


def test_float32_and_bad_input():
    x = torch.randn(2, 8, dtype=torch.float32, requires_grad=True)
    loss = SoftDTWLoss(0.1)(x, torch.randn(2, 6))
    loss.backward()
    assert loss.dtype == torch.float32 and x.grad.dtype == torch.float32 and x.grad.shape == x.shape
    with pytest.raises(ValueError, match="gamma: must be > 0"):
        soft_dtw_loss(x, x, 0.0)
    with pytest.raises(ValueError, match="y: holds 3 series, x 2"):
        soft_dtw_loss(x, torch.randn(3, 8))
    with pytest.raises(ValueError, match="x: give a batch of series"):
        soft_dtw_loss(torch.randn(8), torch.randn(8))
    with pytest.raises(TypeError, match="x: dtype torch.int64"):
        soft_dtw_loss(torch.ones(2, 8, dtype=torch.int64), torch.randn(2, 8))


needs_cuda = pytest.mark.skipif(torch is None or not torch.cuda.is_available(), reason="no CUDA device visible to torch")


@pytest.fixture
def no_host_path(monkeypatch):
    """Fails the test if the loss takes the host path (warplab.soft_dtw or a copy to the host)."""
    import warplab.torch as wt

    def refuse(*args, **kwargs):
        raise AssertionError("the CUDA loss went through host memory")
    monkeypatch.setattr(wt, "_host_array", refuse)
    monkeypatch.setattr(wt._warplab, "soft_dtw", refuse)


def host_loss(x, y, gamma):
    """The host path's values and gradients (CPU copies of the tensors), float64."""
    xc, yc = x.detach().cpu().double().requires_grad_(True), y.detach().cpu().double().requires_grad_(True)
    v = soft_dtw_loss(xc, yc, gamma, "none")
    v.sum().backward()
    return v.detach(), xc.grad, yc.grad


@needs_cuda
def test_gradcheck_cuda_and_tensors_stay_on_their_device(no_host_path):
    x, y = batch((3, 12), 6, "cuda"), batch((3, 10), 7, "cuda")
    loss = soft_dtw_loss(x, y, 1.0, "none")
    assert loss.device.type == "cuda"
    loss.sum().backward()
    assert x.grad.device.type == "cuda" and y.grad.device.type == "cuda"
    assert torch.autograd.gradcheck(lambda a, b: soft_dtw_loss(a, b, 1.0, "none"), (x, y), eps=EPS, atol=ATOL,
                                    rtol=RTOL)


@needs_cuda
@pytest.mark.parametrize("shape_x,shape_y", [((4, 30), (4, 25)), ((2, 16, 3), (2, 11, 3))])
def test_cuda_float64_equals_the_host_path(shape_x, shape_y):
    """float64 tensors: the fp64 kernels, Cuturi & Blondel's recursions as on the host, to rounding."""
    x, y = batch(shape_x, 8, "cuda"), batch(shape_y, 9, "cuda")
    v = soft_dtw_loss(x, y, 0.5, "none")
    v.sum().backward()
    hv, hx, hy = host_loss(x, y, 0.5)
    np.testing.assert_allclose(v.detach().cpu().numpy(), hv.numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad.cpu().numpy(), hx.numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(y.grad.cpu().numpy(), hy.numpy(), rtol=1e-9, atol=1e-12)
    if len(shape_x) == 3:
        assert torch.autograd.gradcheck(lambda a, b: soft_dtw_loss(a, b, 0.5, "none"), (x, y), eps=EPS, atol=ATOL,
                                        rtol=RTOL)


@needs_cuda
@pytest.mark.parametrize("gamma", [1.0, 0.1])
def test_cuda_float32_fp32_kernels_agree_with_the_host_path(gamma, no_host_path):
    """float32 tensors: the fp32 kernels, within 1e-5 of the value (relative) and 1e-3 of the
    largest gradient of the host path's float64 recursions on the same samples."""
    g = torch.Generator().manual_seed(11)
    x = torch.randn(16, 300, generator=g).cuda().requires_grad_(True)
    y = torch.randn(16, 200, generator=g).cuda().requires_grad_(True)
    v = soft_dtw_loss(x, y, gamma, "none")
    v.sum().backward()
    assert v.dtype == torch.float32 and x.grad.dtype == torch.float32 and x.grad.device.type == "cuda"
    xs, ys = x.detach().cpu().numpy(), y.detach().cpu().numpy()
    hv, hx = HOST_SOFT_DTW(xs, ys, gamma)
    hy = HOST_SOFT_DTW(ys, xs, gamma)[1]
    np.testing.assert_allclose(v.detach().cpu().double().numpy(), hv, rtol=1e-5)
    assert np.abs(x.grad.cpu().double().numpy() - hx).max() <= 1e-3 * np.abs(hx).max()
    assert np.abs(y.grad.cpu().double().numpy() - hy).max() <= 1e-3 * np.abs(hy).max()

"""Bad input gets its exception with a message naming the argument or file; the accepted forms
(float32/float64, ragged lists, strided views, out= arrays and files) give the same numbers."""
import os

import numpy as np
import pytest

import warplab
from conftest import ucr


@pytest.fixture(scope="module")
def gun():
    _, X = ucr("GunPoint")
    return X[:12]


def test_float32_and_float64_and_lists_agree(gun):
    d32 = warplab.distance_matrix(gun, metric="cdtw", band=6)
    d64 = warplab.distance_matrix(gun.astype(np.float64), metric="cdtw", band=6)
    dlist = warplab.distance_matrix([s for s in gun], metric="cdtw", band=6)
    assert np.array_equal(d32, d64) and np.array_equal(d32, dlist)
    assert warplab.distance(list(map(float, gun[0])), gun[1]) == warplab.distance(gun[0], gun[1])


def test_strided_input_is_read_as_its_values(gun):
    wide = np.zeros((12, 300), dtype=np.float64)
    wide[:, ::2] = gun
    view = wide[:, ::2]
    assert not view.flags.c_contiguous
    assert np.array_equal(warplab.distance_matrix(view), warplab.distance_matrix(gun))
    assert warplab.distance(view[0], view[1]) == warplab.distance(gun[0], gun[1])


def test_ragged_lists(gun):
    ragged = [gun[0][:100], gun[1], gun[2][:120]]
    d = warplab.distance_matrix(ragged, metric="dtw", kernel="cpu.reference")
    assert d.shape == (3, 3)
    assert d[0, 2] == warplab.distance(ragged[0], ragged[2])
    with pytest.raises(ValueError, match=r"queries\[1\]"):  # euclidean needs equal lengths
        warplab.distance_matrix(ragged, metric="euclidean")
    with pytest.raises(ValueError, match="a: not an array of numbers"):
        warplab.distance([[1.0, 2.0], [3.0]], gun[0])


def test_nan_empty_dtype_shape():
    ok = np.linspace(0, 1, 50)
    bad = ok.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match="^x: sample 7 is NaN$"):
        warplab.distance(bad, ok)
    with pytest.raises(ValueError, match=r"queries\[1\]"):
        warplab.distance_matrix([ok, bad])
    with pytest.raises(ValueError, match="empty"):
        warplab.distance(np.array([], dtype=np.float64), ok)
    with pytest.raises(ValueError, match="no series"):
        warplab.distance_matrix(np.zeros((0, 10)))
    with pytest.raises(TypeError, match="a: dtype int64 is not float32 or float64"):
        warplab.distance(np.arange(10), ok)
    with pytest.raises(TypeError, match="X: dtype float16"):
        warplab.distance_matrix(np.zeros((3, 10), dtype=np.float16))
    with pytest.raises(ValueError, match="3 dimensions"):
        warplab.distance(np.zeros((2, 3, 4)), ok)
    with pytest.raises(TypeError, match="X: give a 2-D or 3-D array"):
        warplab.distance_matrix(3.0)


def test_parameters():
    x = np.linspace(0, 1, 20)
    with pytest.raises(ValueError, match="metric: unknown metric 'dwt'"):
        warplab.distance(x, x, "dwt")
    with pytest.raises(ValueError, match="gamma"):
        warplab.distance(x, x, "softdtw", gamma=0)
    with pytest.raises(ValueError, match="band"):
        warplab.distance(x, x, "cdtw", band=-1)
    with pytest.raises(ValueError, match="kernel: no kernel named 'cpu.nope'"):
        warplab.distance_matrix([x, x], kernel="cpu.nope")
    with pytest.raises(ValueError, match="backend: unknown backend"):
        warplab.distance_matrix([x, x], backend="gpu")
    with pytest.raises(ValueError, match="band: subsequence search has no band"):
        warplab.search(x[:5], x, band=3)


def test_device_error_without_gpu():
    if warplab.devices():
        pytest.skip("a GPU is present")
    x = np.linspace(0, 1, 20)
    with pytest.raises(warplab.DeviceError):
        warplab.distance_matrix([x, x], backend="cuda")
    assert issubclass(warplab.DeviceError, RuntimeError)


def test_out_array_memmap_and_files(tmp_path, gun):
    expected = warplab.distance_matrix(gun[:5], gun, metric="cdtw", band=4)
    out = np.empty((5, 12))
    assert warplab.distance_matrix(gun[:5], gun, metric="cdtw", band=4, out=out) is out
    assert np.array_equal(out, expected)
    mm = np.lib.format.open_memmap(tmp_path / "mm.npy", mode="w+", dtype=np.float64, shape=(5, 12))
    warplab.distance_matrix(gun[:5], gun, metric="cdtw", band=4, out=mm)
    mm.flush()
    assert np.array_equal(np.load(tmp_path / "mm.npy"), expected)
    for name in ("m.npy", "m.h5"):
        path = tmp_path / name
        assert warplab.distance_matrix(gun[:5], gun, metric="cdtw", band=4, out=path) == str(path)
        if name.endswith(".npy"):
            assert np.array_equal(np.load(path), expected)
        else:
            h5py = pytest.importorskip("h5py")
            with h5py.File(path) as f:
                assert np.array_equal(f[list(f.keys())[0]][()], expected)
    with pytest.raises(ValueError, match="not C-contiguous"):
        warplab.distance_matrix(gun[:5], gun, out=np.empty((12, 5)).T)
    with pytest.raises(TypeError, match="out: dtype float32 is not float64"):
        warplab.distance_matrix(gun[:5], gun, out=np.empty((5, 12), dtype=np.float32))
    with pytest.raises(ValueError, match=r"out: shape must be \(5, 12\)"):
        warplab.distance_matrix(gun[:5], gun, out=np.empty((5, 11)))
    with pytest.raises(ValueError, match="unknown extension '.csv'"):
        warplab.distance_matrix(gun[:5], gun, out=tmp_path / "m.csv")
    with pytest.raises(ValueError, match="does not exist"):
        warplab.distance_matrix(gun[:5], gun, out=tmp_path / "no" / "m.npy")


def test_recording(sample_path):
    rec = warplab.open_recording(sample_path)
    assert rec.format.startswith("EDF") and len(rec.channels) == 23 and rec.channels[0] == "FP1-F7"
    assert rec.rates[0] == 256.0 and rec.duration == pytest.approx(82.0)
    assert any("seizure" in text for _, _, text in rec.annotations)
    whole = rec.read("FP1-F7")
    assert whole.dtype == np.float32 and len(whole) == rec.signals[0]["samples"]
    assert np.array_equal(rec.read(0, 100, 200), whole[100:200])
    assert np.array_equal(rec.read("#0", 100, 200), whole[100:200])
    with pytest.raises(ValueError, match='no channel "XX"'):
        rec.read("XX")
    with pytest.raises(ValueError, match="are not inside"):
        rec.read(0, 10, len(whole) + 1)
    with pytest.raises(FileNotFoundError, match="no such file"):
        warplab.open_recording(os.path.join(os.path.dirname(sample_path), "missing.edf"))
    with pytest.raises(ValueError, match="give exactly one of"):
        warplab.find_patterns(rec)


def test_soft_dtw_gradient_by_finite_differences():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((4, 30))
    Y = rng.standard_normal((4, 25))
    values, grads = warplab.soft_dtw(X, Y, gamma=0.7)
    assert values.shape == (4,) and grads.shape == (4, 30)
    for i in range(4):
        assert values[i] == warplab.distance(X[i], Y[i], "softdtw", gamma=0.7)
    # Central differences on the float32 engine: steps of 1e-2 keep rounding well below the slope.
    x = X[0].astype(np.float32).astype(np.float64)
    for k in (0, 11, 29):
        h = 1e-2
        xp, xm = x.copy(), x.copy()
        xp[k] += h
        xm[k] -= h
        fd = (warplab.distance(xp, Y[0], "softdtw", gamma=0.7) - warplab.distance(xm, Y[0], "softdtw", gamma=0.7)) / (2 * h)
        assert fd == pytest.approx(grads[0][k], rel=2e-2, abs=2e-3)
    v, g = warplab.soft_dtw(X[0], Y[0], 0.7)
    assert v == values[0] and np.array_equal(g, grads[0])
    with pytest.raises(ValueError, match="soft_dtw takes pairs"):
        warplab.soft_dtw(X, Y[:3], 0.7)


def test_device_soft_dtw_needs_arrays_in_gpu_memory():
    """The PyTorch loss's device entry takes __cuda_array_interface__ objects only; without a GPU
    build or device it raises DeviceError (the GPU machine's run checks it with CUDA tensors)."""
    from warplab import _warplab
    x = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(TypeError, match="x: not an array in GPU memory"):
        _warplab.soft_dtw_device(x, x, np.zeros(2), x, 1.0, "sq", True, 0, 0)
    if warplab.devices():
        return

    class Fake:  # a described device array that is never read: the engine stops first
        def __init__(self, shape, typestr):
            self.__cuda_array_interface__ = {"data": (1, False), "shape": shape, "typestr": typestr,
                                             "strides": None, "version": 3}
    a, v = Fake((2, 8), "<f4"), Fake((2,), "<f8")
    with pytest.raises(ValueError, match="gradients: give a float32 array"):
        _warplab.soft_dtw_device(a, a, v, Fake((2, 8), "<f8"), 1.0, "sq", True, 0, 0)
    with pytest.raises(warplab.DeviceError):
        _warplab.soft_dtw_device(a, a, v, a, 1.0, "sq", True, 0, 0)

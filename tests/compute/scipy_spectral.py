"""SciPy's answer for tests/compute/test_spectral.cpp, computed at test time.

Usage: scipy_spectral.py MODE IN OUT RATE ARGS...
  IN holds little-endian float32 samples; OUT gets little-endian float64 values.
  bandpass LO HI ORDER    sosfiltfilt(butter(ORDER, [LO, HI], "bandpass", fs=RATE, output="sos"), x)
  welch NPERSEG NOVERLAP DETREND SCALING   frequencies then power of scipy.signal.welch (Hann)
  spectrogram NPERSEG NOVERLAP             scipy.signal.spectrogram (Hann, constant, density, psd),
                                           frames x bins, frame-major
Exits 3 when SciPy is missing, so the test can skip with that message.
"""
import sys

try:
    import numpy as np
    from scipy import signal
except ImportError as e:  # the test reports this and skips
    print(f"scipy missing: {e}", file=sys.stderr)
    sys.exit(3)

mode, src, dst, rate = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
args = sys.argv[5:]
x = np.fromfile(src, dtype="<f4").astype(np.float64)
if mode == "bandpass":
    sos = signal.butter(int(args[2]), [float(args[0]), float(args[1])], btype="bandpass", fs=rate, output="sos")
    y = signal.sosfiltfilt(sos, x)
elif mode == "welch":
    detrend = False if args[2] == "none" else args[2]
    f, p = signal.welch(x, fs=rate, window="hann", nperseg=int(args[0]), noverlap=int(args[1]), detrend=detrend,
                        scaling=args[3], return_onesided=True, average="mean")
    y = np.concatenate([f, p])
elif mode == "spectrogram":
    f, t, s = signal.spectrogram(x, fs=rate, window="hann", nperseg=int(args[0]), noverlap=int(args[1]),
                                 detrend="constant", scaling="density", mode="psd")
    y = s.T.ravel()
else:
    sys.exit(f"unknown mode {mode}")
np.asarray(y, dtype="<f8").tofile(dst)

# Type stubs of warplab.spectral (bands, band filter, PSD, spectrogram).
from typing import Any, Literal, Sequence, Union

import numpy as np
import numpy.typing as npt

_Band = Union[str, tuple[float, float], Sequence[float]]
_Detrend = Literal["none", "constant", "linear"]
_Scaling = Literal["density", "spectrum"]

def frequency_bands() -> list[dict[str, Any]]: ...
def frequency_band(band: _Band, rate: float = 0.0, *, length: int = 0, order: int = 4) -> dict[str, Any]: ...
def filter(x: npt.ArrayLike, rate: float, band: _Band, *, order: int = 4) -> npt.NDArray[np.float32]: ...
def psd(x: npt.ArrayLike, rate: float, *, nperseg: int = 256, noverlap: int | None = None, detrend: _Detrend = "constant",
        scaling: _Scaling = "density") -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def spectrogram(x: npt.ArrayLike, rate: float, *, nperseg: int = 256, noverlap: int | None = None,
                detrend: _Detrend = "constant", scaling: _Scaling = "density"
                ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float32]]: ...

# Type stubs of the warplab package (the compiled _warplab module has none of its own).
import os
from typing import Any, Callable, Literal, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from .spectral import _Band as _Band

_Series = npt.ArrayLike
_SeriesSet = Union[npt.ArrayLike, Sequence[npt.ArrayLike]]
_Metric = Literal["euclidean", "dtw", "cdtw", "sdtw", "softdtw", "twed"]
_Cost = Literal["sq", "abs"]
_Backend = Literal["auto", "cpu", "cuda", "hip"]
_Devices = Union[None, Literal["all"], int, Sequence[int]]
_Path = Union[str, os.PathLike[str]]
_Progress = Union[None, bool, Callable[[float], Any]]

__version__: str

class DeviceError(RuntimeError): ...

class Recording:
    @property
    def path(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def start(self) -> str: ...
    @property
    def duration(self) -> float: ...
    @property
    def channels(self) -> list[str]: ...
    @property
    def rates(self) -> list[float]: ...
    @property
    def signals(self) -> list[dict[str, Any]]: ...
    @property
    def annotations(self) -> list[tuple[float, float, str]]: ...
    @property
    def warnings(self) -> list[str]: ...
    def read(self, channel: Union[str, int], start: int = 0, stop: int | None = None) -> npt.NDArray[np.float32]: ...

class Study:
    @property
    def path(self) -> str: ...
    @property
    def source(self) -> Literal["folder", "summary", "list"]: ...
    @property
    def recordings(self) -> list[dict[str, Any]]: ...
    @property
    def channels(self) -> list[str]: ...
    @property
    def rates(self) -> list[float]: ...
    @property
    def seizures(self) -> list[tuple[str, float, float, str]]: ...
    @property
    def gaps(self) -> list[float]: ...
    @property
    def warnings(self) -> list[str]: ...
    def read(self, recording: Union[str, int], channel: Union[str, int], start: int = 0,
             stop: int | None = None) -> npt.NDArray[np.float32]: ...
    def __len__(self) -> int: ...

def distance(a: _Series, b: _Series, metric: _Metric = "dtw", *, band: int = 0, gamma: float = 1.0,
             nu: float = 0.001, lam: float = 1.0, cost: _Cost = "sq", znorm: bool = False, sqrt: bool = False,
             backend: _Backend = "auto", kernel: str | None = None) -> float: ...
@overload
def distance_matrix(X: _SeriesSet, Y: _SeriesSet | None = None, metric: _Metric = "dtw", *, band: int = 0,
                    gamma: float = 1.0, nu: float = 0.001, lam: float = 1.0, cost: _Cost = "sq",
                    znorm: bool = False, sqrt: bool = False, backend: _Backend = "auto", kernel: str | None = None,
                    threads: int = 0, devices: _Devices = None,
                    out: npt.NDArray[np.float64] | None = None,
                    progress: _Progress = None, channel: str | int | Sequence[str | int] | None = None,
                    freq_band: _Band | None = None, rate: float | None = None, freq_band_order: int = 4
                    ) -> npt.NDArray[np.float64]: ...
@overload
def distance_matrix(X: _SeriesSet, Y: _SeriesSet | None = None, metric: _Metric = "dtw", *, band: int = 0,
                    gamma: float = 1.0, nu: float = 0.001, lam: float = 1.0, cost: _Cost = "sq",
                    znorm: bool = False, sqrt: bool = False, backend: _Backend = "auto", kernel: str | None = None,
                    threads: int = 0, devices: _Devices = None, out: _Path,
                    progress: _Progress = None, channel: str | int | Sequence[str | int] | None = None,
                    freq_band: _Band | None = None, rate: float | None = None, freq_band_order: int = 4) -> str: ...
def align(a: _Series, b: _Series, metric: _Metric = "dtw", *, band: int = 0, gamma: float = 1.0,
          nu: float = 0.001, lam: float = 1.0, cost: _Cost = "sq", znorm: bool = False, sqrt: bool = False,
          matrix: bool = False, progress: _Progress = None) -> tuple[Any, ...]: ...
def soft_dtw(X: _SeriesSet, Y: _SeriesSet, gamma: float = 1.0, *, cost: _Cost = "sq",
             gradient: bool = True) -> Any: ...
def search(query: _Series, reference: _Series, k: int = 1, *, mode: Literal["subsequence", "window"] = "subsequence",
           band: int | None = None, znorm: bool = False, cost: _Cost = "sq", sqrt: bool = False,
           exclude: tuple[int, int] | Sequence[tuple[int, int]] | None = None, exclusion_tolerance: int = 0,
           backend: _Backend = "auto",
           kernel: str | None = None, threads: int = 0, devices: _Devices = None,
           progress: _Progress = None, freq_band: _Band | None = None, rate: float | None = None,
           freq_band_order: int = 4) -> np.ndarray: ...
def open_recording(path: _Path) -> Recording: ...
def open_study(path: Union[_Path, Sequence[_Path]], *, summary: _Path | None = None, annotation: str | None = None,
               recursive: bool = False) -> Study: ...
def find_patterns(source: Union[Recording, Study, _Path, _Series], *,
                  seizures: Sequence[tuple[float, float]] | Sequence[tuple[str | int, float, float]] | None = None,
                  annotation: str | None = None, summary: _Path | None = None, channel: str | int | None = None,
                  rate: float = 0.0, epoch: int = 1024, stride: int = 256, band: int = 16,
                  quality: Literal["auc", "infogain"] = "auc", top: int = 0, backend: _Backend = "auto",
                  kernel: str | None = None, threads: int = 0, devices: _Devices = None,
                  progress: _Progress = None, freq_band: _Band | None = None,
                  freq_band_order: int = 4) -> np.ndarray: ...
def kernels() -> list[dict[str, Any]]: ...
def devices() -> list[dict[str, Any]]: ...
def bench(metric: _Metric = "dtw", *, kernels: str | Sequence[str] = "all", lengths: Sequence[int] = (128, 512, 1024),
          pairs: int = 4096, series: int = 0, repeats: int = 5, band: int = 0, gamma: float = 1.0,
          nu: float = 0.001, lam: float = 1.0, cost: _Cost = "sq", znorm: bool = False, sqrt: bool = False,
          threads: int = 0, engine_timing: bool = True, device_timing: bool = True, queries: int = 512,
          reference_length: int = 100000, top: int = 5, devices: _Devices = None, as_array: bool = False,
          progress: _Progress = None) -> Any: ...

# Frequency bands, band filter, PSD, spectrogram: typed once, in warplab/spectral.pyi
from .spectral import filter as filter, frequency_band as frequency_band, frequency_bands as frequency_bands
from .spectral import psd as psd, spectrogram as spectrogram
def read_events(path: _Path, *, recording: _Path | None = None) -> tuple[list[tuple[float, float]], float | None, str]: ...
def score(reference: _Path | Sequence[tuple[float, float]], hypothesis: _Path | Sequence[tuple[float, float]],
          duration: float | None = None, *, recording: _Path | None = None, tolerance_before: float = 30.0,
          tolerance_after: float = 60.0, merge_gap: float = 90.0, max_event: float = 300.0, min_overlap: float = 0.0,
          sample_rate: float = 1.0) -> dict[str, Any]: ...
def detect(detector: _Path, recording: _Path, *, events_out: _Path | None = None, backend: _Backend = "auto",
           threads: int = 0, devices: _Devices = None) -> list[tuple[float, float, float]]: ...

# The seizure detector and its cross-validation (warplab/detector.py)
_OperatingPoint = Union[str, float]
_Channels = Union[None, str, int, Sequence[Union[str, int]]]
_StudySeizures = Union[Sequence[tuple[Union[str, int], float, float]], Sequence[tuple[float, float]]]
_StudySource = Union[Study, Recording, _Path, Sequence[_Path]]

class Detector:
    @classmethod
    def build(cls, study: _StudySource, *, channel: _Channels = None, seizures: _StudySeizures | None = None,
              epoch: int = 1024, stride: int = 256, band: int = 16, top: int = 5,
              operating_point: _OperatingPoint = "youden", votes: int = 1, min_epochs: int = 1,
              event_gap: float = 0.0, freq_band: _Band | None = None, skip_missing: bool = False,
              backend: _Backend = "auto", kernel: str | None = None, threads: int = 0, devices: _Devices = None,
              progress: _Progress = None) -> Detector: ...
    @classmethod
    def load(cls, path: _Path) -> Detector: ...
    def save(self, path: _Path) -> None: ...
    def apply(self, recording: Union[_Path, Recording], *, events_out: _Path | None = None,
              backend: _Backend = "auto", threads: int = 0, devices: _Devices = None,
              progress: _Progress = None) -> list[tuple[float, float, float]]: ...
    @property
    def channels(self) -> list[str]: ...
    @property
    def rate(self) -> float: ...
    @property
    def epoch(self) -> int: ...
    @property
    def stride(self) -> int: ...
    @property
    def band(self) -> int: ...
    @property
    def freq_band(self) -> str | None: ...
    @property
    def operating_point(self) -> str: ...
    @property
    def rule(self) -> dict[str, Any]: ...
    @property
    def patterns(self) -> list[dict[str, Any]]: ...
    def __eq__(self, other: object) -> bool: ...

def crossval(study: _StudySource, *, channel: _Channels = None, seizures: _StudySeizures | None = None,
             folds: Literal["seizure", "recording"] = "seizure", epoch: int = 1024, stride: int = 256,
             band: int = 16, top: int = 5, operating_point: _OperatingPoint = "youden", votes: int = 1,
             min_epochs: int = 1, event_gap: float = 0.0, freq_band: _Band | None = None,
             skip_missing: bool = False, tolerance_before: float = 30.0, tolerance_after: float = 60.0,
             merge_gap: float = 90.0, max_event: float = 300.0, min_overlap: float = 0.0, sample_rate: float = 1.0,
             backend: _Backend = "auto", kernel: str | None = None, threads: int = 0, devices: _Devices = None,
             progress: _Progress = None) -> dict[str, Any]: ...

"""scikit-learn estimators over WarpLab's distances.

:class:`KNeighborsTimeSeriesClassifier` is a k-nearest-neighbour classifier under an elastic
distance; :class:`DistanceMatrixTransformer` turns series into their distances to the training
series, for ``KNeighborsClassifier(metric="precomputed")``, ``SVC(kernel="precomputed")`` or any
estimator in a ``Pipeline``. Both take series as the rows of a 2-D array (series x samples),
as scikit-learn's ``X``, and the metric's options as ``metric_params`` (``{"band": 8}``).
"""
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, check_X_y

from . import distance_matrix

__all__ = ["KNeighborsTimeSeriesClassifier", "DistanceMatrixTransformer"]


def _distances(X, Y, metric, metric_params, backend, kernel, n_jobs):
    threads = 0 if n_jobs in (None, -1) else int(n_jobs)
    return distance_matrix(X, Y, metric, backend=backend, kernel=kernel, threads=threads, **(metric_params or {}))


class KNeighborsTimeSeriesClassifier(ClassifierMixin, BaseEstimator):
    """k-nearest-neighbour classification of time series under an elastic distance.

    Parameters
    ----------
    n_neighbors : int, default 1
    metric : str, default "dtw"
        A metric of :func:`warplab.distance` ("euclidean", "dtw", "cdtw", "sdtw", "softdtw", "twed").
    metric_params : dict, optional
        Its options: band, gamma, nu, lam, cost, znorm, sqrt.
    weights : {"uniform", "distance"}
        Votes equal, or weighted by 1 / distance.
    backend, kernel : as for :func:`warplab.distance_matrix`.
    n_jobs : int, optional
        CPU threads (None or -1: all cores).

    Ties between neighbours at equal distance go to the earlier training series; ties between
    classes to the smaller class label (as scikit-learn's KNeighborsClassifier).
    """

    def __init__(self, n_neighbors=1, metric="dtw", metric_params=None, weights="uniform", backend="auto",
                 kernel=None, n_jobs=None):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.metric_params = metric_params
        self.weights = weights
        self.backend = backend
        self.kernel = kernel
        self.n_jobs = n_jobs

    def fit(self, X, y):
        X, y = check_X_y(X, y, dtype=[np.float64, np.float32])
        check_classification_targets(y)
        if not isinstance(self.n_neighbors, (int, np.integer)) or self.n_neighbors < 1:
            raise ValueError(f"n_neighbors: must be an integer >= 1, got {self.n_neighbors!r}")
        if self.weights not in ("uniform", "distance"):
            raise ValueError(f"weights: 'uniform' or 'distance', got {self.weights!r}")
        self.classes_, self._y = np.unique(y, return_inverse=True)
        self._X = np.ascontiguousarray(X)
        self.n_features_in_ = X.shape[1]
        return self

    def _neighbours(self, X, n_neighbors):
        check_is_fitted(self)
        X = check_array(X, dtype=[np.float64, np.float32])
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        if n_neighbors > len(self._X):
            raise ValueError(f"n_neighbors: {n_neighbors} > {len(self._X)} training series")
        D = _distances(np.ascontiguousarray(X), self._X, self.metric, self.metric_params, self.backend,
                       self.kernel, self.n_jobs)
        order = np.argsort(D, axis=1, kind="stable")[:, :n_neighbors]
        return np.take_along_axis(D, order, axis=1), order

    def kneighbors(self, X, n_neighbors=None, return_distance=True):
        """Distances to and indices of the nearest training series, nearest first."""
        d, i = self._neighbours(X, n_neighbors or self.n_neighbors)
        return (d, i) if return_distance else i

    def predict_proba(self, X):
        d, i = self._neighbours(X, self.n_neighbors)
        if self.weights == "distance":
            with np.errstate(divide="ignore"):
                w = 1.0 / d
            exact = np.isinf(w)
            rows = exact.any(axis=1)
            w[rows] = exact[rows].astype(float)  # a zero distance takes the whole vote
        else:
            w = np.ones_like(d)
        votes = np.zeros((len(d), len(self.classes_)))
        for k in range(i.shape[1]):
            np.add.at(votes, (np.arange(len(d)), self._y[i[:, k]]), w[:, k])
        return votes / votes.sum(axis=1, keepdims=True)

    def predict(self, X):
        proba = self.predict_proba(X)  # first: it raises NotFittedError before fit
        return self.classes_[np.argmax(proba, axis=1)]

    def _more_tags(self):  # scikit-learn before 1.6
        return {"non_deterministic": False, "requires_y": True}

    def __sklearn_tags__(self):  # scikit-learn 1.6 and later
        tags = super().__sklearn_tags__()
        tags.non_deterministic = False
        tags.target_tags.required = True
        return tags


class DistanceMatrixTransformer(TransformerMixin, BaseEstimator):
    """Series to their distances to the training series (n_samples x n_train), for
    ``metric="precomputed"`` estimators. Parameters as :class:`KNeighborsTimeSeriesClassifier`."""

    def __init__(self, metric="dtw", metric_params=None, backend="auto", kernel=None, n_jobs=None):
        self.metric = metric
        self.metric_params = metric_params
        self.backend = backend
        self.kernel = kernel
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        X = check_array(X, dtype=[np.float64, np.float32])
        self._X = np.ascontiguousarray(X)
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X):
        check_is_fitted(self)
        X = check_array(X, dtype=[np.float64, np.float32])
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        return _distances(np.ascontiguousarray(X), self._X, self.metric, self.metric_params, self.backend,
                          self.kernel, self.n_jobs)

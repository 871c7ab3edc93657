"""The scikit-learn estimators: the UCR archive's published 1-NN error rates on ECG200 and
GunPoint, scikit-learn's own estimator checks, and use in a Pipeline and GridSearchCV."""
import warnings

import numpy as np
import pytest

pytest.importorskip("sklearn")
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

from conftest import ucr  # noqa: E402
from warplab.sklearn import DistanceMatrixTransformer, KNeighborsTimeSeriesClassifier  # noqa: E402

# The published 1-NN test error rates of the UCR Time Series Classification Archive (2018; Dau,
# Keogh et al., https://www.cs.ucr.edu/~eamonn/time_series_data_2018/, its table DataSummary.csv,
# columns "ED (w=0)", "DTW (learned_w)" and "DTW (w=100)"), on the archive's own TRAIN/TEST split,
# raw series (no z-normalisation by the classifier): Euclidean, DTW with the window learned on the
# training set (0 % for both sets, so band 0: Euclidean alignment) and unconstrained DTW.
#   ECG200:   0.1200, 0.1200 (w = 0), 0.2300
#   GunPoint: 0.0867, 0.0867 (w = 0), 0.0933
PUBLISHED = {
    "ECG200": {"euclidean": 0.12, "cdtw": 0.12, "dtw": 0.23},
    "GunPoint": {"euclidean": 0.0867, "cdtw": 0.0867, "dtw": 0.0933},
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_ucr_1nn_error_rates_equal_the_archive(name):
    ytr, Xtr = ucr(name, "TRAIN")
    yte, Xte = ucr(name, "TEST")
    for metric, published in PUBLISHED[name].items():
        params = {"band": 0} if metric == "cdtw" else {}
        clf = KNeighborsTimeSeriesClassifier(metric=metric, metric_params=params).fit(Xtr, ytr)
        error = float(np.mean(clf.predict(Xte) != yte))
        assert round(error, 4) == published, f"{name} {metric}: {error}"


def test_precomputed_pipeline_equals_the_classifier():
    ytr, Xtr = ucr("GunPoint", "TRAIN")
    yte, Xte = ucr("GunPoint", "TEST")
    pipe = make_pipeline(DistanceMatrixTransformer(metric="cdtw", metric_params={"band": 6}),
                         KNeighborsClassifier(n_neighbors=1, metric="precomputed"))
    ours = KNeighborsTimeSeriesClassifier(metric="cdtw", metric_params={"band": 6})
    assert np.array_equal(pipe.fit(Xtr, ytr).predict(Xte), ours.fit(Xtr, ytr).predict(Xte))
    grid = GridSearchCV(KNeighborsTimeSeriesClassifier(metric="cdtw"),
                        {"metric_params": [{"band": 0}, {"band": 5}], "n_neighbors": [1, 3]}, cv=3)
    grid.fit(Xtr, ytr)
    assert grid.best_params_["n_neighbors"] in (1, 3) and 0 <= grid.score(Xte, yte) <= 1


def _estimator_checks(estimator):
    try:
        return list(check_estimator(estimator, generate_only=True))
    except TypeError:  # scikit-learn 1.6 replaced generate_only with estimator_checks_generator
        from sklearn.utils.estimator_checks import estimator_checks_generator
        return list(estimator_checks_generator(estimator, legacy=True))


@pytest.mark.parametrize("estimator", [KNeighborsTimeSeriesClassifier(), DistanceMatrixTransformer()],
                         ids=lambda e: type(e).__name__)
def test_sklearn_estimator_checks(estimator):
    failures, skipped = [], []
    for est, check in _estimator_checks(estimator):
        name = getattr(check, "func", check).__name__
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                check(est)
        except pytest.skip.Exception:
            raise
        except Exception as e:  # SkipTest included: pandas absent makes one check skip
            if type(e).__name__ == "SkipTest":
                skipped.append(name)
            else:
                failures.append(f"{name}: {e}")
    assert not failures, "\n".join(failures)
    # pandas absent (the first two); array-api-compat absent (scikit-learn 1.6 and later).
    assert set(skipped) <= {"check_classifier_data_not_an_array", "check_estimators_dtypes",
                            "check_array_api_input"}, skipped

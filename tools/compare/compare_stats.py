# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: the statistics, pure functions of lists of numbers.

The means, deviations and the significance mark follow mmtests
(bin/lib/MMTests/Stat.pm, Compare.pm; our own code): Hmean for
higher-is-better figures, Amean otherwise, the CoeffVar of the matching
standard deviation, and a difference marked significant when it exceeds
the sum of the two 95 % intervals (1.96 standard deviations each).  On top
of mmtests: a confidence interval for a ratio of means (Student's t on the
standard errors, Welch's degrees of freedom) and the energy a wrapping
counter accumulated over several reads.
"""

import math
from dataclasses import dataclass
from typing import Optional, Sequence

Z95 = 1.959963984540054   # qnorm(0.975): mmtests' alpha = 0.05 intervals


def amean(xs: Sequence[float]) -> float:
    """Arithmetic mean."""
    return sum(xs) / len(xs)


def hmean(xs: Sequence[float]) -> float:
    """Harmonic mean; NaN when a value is not positive (as mmtests)."""
    if any(x <= 0 for x in xs):
        return math.nan
    return len(xs) / sum(1.0 / x for x in xs)


def mean_of(xs: Sequence[float], higher: bool) -> float:
    """The mean mmtests uses: Hmean for higher-is-better, else Amean."""
    return hmean(xs) if higher else amean(xs)


def stddev(xs: Sequence[float], higher: bool) -> float:
    """Standard deviation matching the mean: the sample deviation for the
    Amean; for the Hmean the delta-method deviation
    sqrt(sum((1/x - 1/H)^2) * H^4 / n), as Stat.pm's calc_stddev.
    NaN with fewer than two values."""
    n = len(xs)
    if n <= 1:
        return math.nan
    if not higher:
        m = amean(xs)
        return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = hmean(xs)
    if math.isnan(h):
        return math.nan
    return math.sqrt(sum((1.0 / x - 1.0 / h) ** 2 for x in xs) * h ** 4 / n)


def coeffvar(xs: Sequence[float], higher: bool) -> float:
    """CoeffVar in percent: stddev * 100 / mean (0 where undefined)."""
    m = mean_of(xs, higher)
    s = stddev(xs, higher)
    if math.isnan(s):
        s = 0.0
    if math.isnan(m) or m == 0:
        return 0.0
    return s * 100.0 / m


def pct_diff(new: float, base: float, higher: bool) -> float:
    """The (x%) column: positive is better in both directions (mmtests'
    pdiff for higher-is-better, pndiff for lower-is-better)."""
    if new == base:
        return 0.0
    if higher:
        if new == 0:
            return 0.0
        if base == 0:
            return 100.0
        return new * 100.0 / base - 100.0
    if new == 0:
        return 100.0
    if base == 0:
        return -99.0
    return 100.0 - new * 100.0 / base


def significant(base_mean: float, base_sd: float, new_mean: float, new_sd: float) -> bool:
    """mmtests' mark: the difference of the means over the sum of the
    inner halves of their 95 % intervals (mean -+ 1.96 sd) exceeds 1.
    With no interval (a single run) nothing is marked."""
    if math.isnan(base_sd) or math.isnan(new_sd):
        return False
    cisum = Z95 * (base_sd + new_sd)
    diff = base_mean - new_mean
    ratio = diff if cisum == 0 else diff / cisum
    return abs(ratio) > 1


def geomean(xs: Sequence[float]) -> float:
    """Geometric mean of positive numbers."""
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


# ---------------------------------------------------------------------------
# Confidence intervals of ratios

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified
    Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with df (real, > 0) degrees of
    freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The p quantile (0.5 < p < 1) of Student's t with df degrees of
    freedom, by bisection on t_cdf."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class LogMean:
    """The logarithm of a sample's mean with its variance (the squared
    relative standard error, delta method) and degrees of freedom."""
    log: float
    var: float
    df: float


def log_mean(xs: Sequence[float], higher: bool) -> Optional[LogMean]:
    """log(mean) of xs with its variance: (se / mean)^2, the standard
    error se being s / sqrt(n) for the Amean and, for the Hmean,
    H^2 s(1/x) / sqrt(n) (delta method).  None with fewer than two
    values or a mean that is not positive."""
    n = len(xs)
    m = mean_of(xs, higher)
    if n < 2 or math.isnan(m) or m <= 0:
        return None
    if higher:
        inv = [1.0 / x for x in xs]
        mi = amean(inv)
        s = math.sqrt(sum((v - mi) ** 2 for v in inv) / (n - 1))
        se = m * m * s / math.sqrt(n)
    else:
        s = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
        se = s / math.sqrt(n)
    return LogMean(math.log(m), (se / m) ** 2, n - 1.0)


@dataclass(frozen=True)
class Interval:
    """A two-sided 95 % confidence interval."""
    low: float
    high: float


def ratio_interval(parts: Sequence[tuple[LogMean, LogMean]]) -> Optional[Interval]:
    """The 95 % interval of the geometric mean over points of
    new mean / base mean, each pair being (base, new): the log ratio's
    variance is the sum of the two relative variances, averaged over the
    points (divided by their count squared), with Welch-Satterthwaite
    degrees of freedom over every term.  None without points; a ratio
    with no spread at all has a zero-width interval."""
    if not parts:
        return None
    k = len(parts)
    centre = sum(new.log - base.log for base, new in parts) / k
    terms = [lm for pair in parts for lm in pair]
    var = sum(t.var for t in terms) / (k * k)
    if var == 0:
        return Interval(math.exp(centre), math.exp(centre))
    denom = sum((t.var / (k * k)) ** 2 / t.df for t in terms if t.var > 0)
    df = var * var / denom
    half = t_quantile(0.975, df) * math.sqrt(var)
    return Interval(math.exp(centre - half), math.exp(centre + half))


# ---------------------------------------------------------------------------
# Energy counters

def energy_delta_uj(before: int, after: int, max_range_uj: int) -> int:
    """Energy between two consecutive energy_uj reads; the counter wraps
    to 0 after max_energy_range_uj (as RAPL's does), at most once between
    two reads (the reader reads often enough for that)."""
    d = after - before
    if d < 0:
        d += max_range_uj
    return d


def energy_accumulated_uj(reads: Sequence[int], max_range_uj: int) -> int:
    """Energy over a series of reads in time order: the sum of the
    consecutive deltas, so a run that spans several wraps counts each."""
    return sum(energy_delta_uj(a, b, max_range_uj) for a, b in zip(reads, reads[1:]))


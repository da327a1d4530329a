#pragma once
// What a sampled plan's runs say (`nestvp uncertainty`, docs/cmd-uncertainty.md): for every
// metric under each paired value (e.g. each DEC policy), and for the three reference ratios
// (cancel / no-cancel of exits, arithoh and GET_STATE), the median and the 5-95 % interval, and
// each assumption's share of the variance.
//
// Convergence: every bound is also given from the first hypercube alone (the first half of the
// samples when `nestvp uncertainty` draws two), each with its bootstrap standard error.
//
// Run-to-run noise: with replicate runs in the plan (`--run-noise K`), each sample's value is
// that of one full-length run: the sample's output plus replicate (sample mod K)'s step from
// the platform's own point as the samples ran it (a ratio: times its factor). So the interval
// is that of one measured run, not of the runs' mean, and a short run's offset is removed; the
// noise is taken at the platform's values for every sample (docs/cmd-uncertainty.md). Shares
// are computed without it.
//
// Shares: the squared Spearman rank correlation of the input with the output, normalised over
// the inputs (rank correlation analysis; with the near-orthogonal inputs of a Latin hypercube it
// approximates the squared standardised rank regression coefficients, without needing more
// samples than inputs). Shares say which assumptions matter, not how much exactly.
#include <optional>
#include <string>
#include <vector>

#include "platforms/analysis/sweep_plan.h"
#include "platforms/records/run_record.h"

namespace nestvp {

struct variance_share {
    std::string key;
    double share = 0;  // of the variance the inputs explain, 0..1, summing to 1
    double rho = 0;    // Spearman rank correlation, signed: the direction of the effect
};

// The 5 % and 95 % points of some samples, each with its bootstrap standard error.
struct interval_bounds {
    size_t n = 0;  // samples with a value
    double p5 = 0, p5_se = 0, p95 = 0, p95_se = 0;
};

struct uncertainty_target {
    std::string name;  // "kvm_guest_exit [no-cancel]", "ratio kvm_guest_exit cancel/no-cancel"
    size_t n = 0;      // samples with a value
    double p5 = 0, median = 0, p95 = 0;
    double p5_se = 0, p95_se = 0;
    interval_bounds half;                // from the first half of the samples
    std::vector<variance_share> shares;  // largest first
    size_t noise_n = 0;                  // replicates with a value (0: no noise added)
    double noise_sd = 0;                 // their standard deviation (a ratio's, at its median)
};

struct uncertainty_report {
    unsigned samples = 0, samples_complete = 0;
    unsigned hypercubes = 1, half_samples = 0;  // the first half_samples form the half
    double sim_seconds = 0;                     // simulated per run
    double count_scale = 1;                     // counts are reported multiplied by this
    unsigned replicates = 0;                    // run-to-run noise replicates per paired value
    double replicate_seconds = 0;               // simulated per replicate run
    std::vector<std::string> keys;              // the sampled keys
    std::vector<uncertainty_target> targets;
};

// pts[i] is point i of `plan` (a sampled plan); a sample counts for a target when every run it
// needs is present.
uncertainty_report analyse_samples(const sweep_plan& plan,
                                   const std::vector<std::optional<run_record>>& pts);

// The q-quantile (0..1) of xs by linear interpolation between order statistics (xs unsorted).
double quantile(std::vector<double> xs, double q);
// The bootstrap standard error of quantile(xs, q) for each q (Efron and Tibshirani, An
// Introduction to the Bootstrap, 1993, ch. 6): the standard deviation of the resamples'
// quantiles, over `resamples` resamples of xs drawn with replacement from a fixed seed, so the
// same xs give the same errors. It treats xs as independent draws.
std::vector<double> bootstrap_se(const std::vector<double>& xs, const std::vector<double>& qs,
                                 unsigned resamples = 2000);
// Average ranks (ties share their mean rank), 1-based.
std::vector<double> ranks(const std::vector<double>& xs);
// Pearson correlation of ranks; 0 when either side has no spread.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

// One line per target: median, 5-95 % interval and the three largest shares.
std::string uncertainty_text(const uncertainty_report& r);
// target,n,p5,median,p95,share.<key>... (every key's share per target).
std::string uncertainty_csv(const uncertainty_report& r);
json uncertainty_json(const uncertainty_report& r);

}  // namespace nestvp

#pragma once
// A sweep: the cartesian product of --grid axes over one platform file. The same plan runs
// locally (`nestvp sweep`) or is written out as one shell command per point
// (`--emit-jobs DIR`: jobs.txt + sweep.json) for GNU parallel or a Slurm array, and
// `nestvp merge DIR` turns the per-point JSON into the CSV a local sweep writes.
#include <optional>
#include <string>
#include <vector>

#include "platforms/records/run_record.h"

namespace nestvp {

struct grid_axis {
    std::string key;
    std::vector<std::string> values;
};

// "key=v1,v2,..." -> axis. Throws std::invalid_argument naming --grid and the problem.
// `flag` names the option in errors ("--grid", or "--pair", "--policies", ... for the commands
// that build an axis from their own option).
grid_axis parse_grid(const std::string& spec, const std::string& flag = "--grid");

// The points in grid order: the first axis varies slowest (nested loops in --grid order).
// Each point is the list of "key=value" strings for its grid values.
std::vector<std::vector<std::string>> expand_grid(const std::vector<grid_axis>& axes);

struct sweep_plan {
    std::string platform_file;           // absolute
    std::vector<std::string> base_sets;  // --set, applied before the grid values
    std::vector<grid_axis> grid;
    std::vector<std::vector<std::string>> points;  // expand_grid(grid), or the samples'
    // A sampled plan (`nestvp uncertainty`): the points are listed, not a product. `grid` then
    // names the sampled keys (values empty) and, last, the paired key with its values.
    bool sampled = false;
    uint64_t sample_seed = 0;
    unsigned samples = 0;  // points = samples x the paired key's values, sample-major
    // The samples are `hypercubes` independent Latin hypercubes of samples / hypercubes each,
    // one after the other (1 in a manifest that does not say).
    unsigned hypercubes = 1;
    // Each run simulates run_seconds (0: not stated); counts are reported multiplied by
    // count_scale, i.e. as for run_seconds * count_scale of simulated time (1: not scaled).
    double run_seconds = 0;
    double count_scale = 1;
    // Run-to-run noise (`nestvp uncertainty --run-noise K`): after the samples' points come K
    // replicates x the paired values, point samples * pairs + k * pairs + p, each at the
    // platform's own values and full length with a seed of its own, then the platform's own
    // point under each paired value, run as the samples are (add_noise_replicates).
    unsigned replicates = 0;

    std::vector<std::string> grid_keys() const;
    // The --set list of point i: base sets, then the point's grid values.
    std::vector<std::string> point_sets(size_t i) const;
    // argv of `nestvp run` for point i (argv[0] = exe), writing JSON to json_path.
    std::vector<std::string> point_argv(const std::string& exe, size_t i,
                                        const std::string& json_path) const;
};

sweep_plan make_sweep_plan(const std::string& platform_file,
                           const std::vector<std::string>& base_sets,
                           const std::vector<grid_axis>& grid);

// A sampled plan: `samples[s]` holds sample s's "key=value" list; each is run once per value of
// `pair` (e.g. l1.dec_policy with no-cancel, cancel), point index s * pairs + p.
sweep_plan make_sample_plan(const std::string& platform_file,
                            const std::vector<std::string>& base_sets,
                            const std::vector<std::string>& keys,
                            const std::vector<std::vector<std::string>>& samples,
                            const grid_axis& pair, uint64_t seed);

// Appends `k` replicates of every paired value to a sampled plan: the platform's own values
// (nothing sampled), run.duration_s = duration_s, and run.seed = base_seed + 1 + i for the i-th
// replicate point, so no two runs share their random streams; then, if k > 0, the platform's
// own point under each paired value with the plan's base sets (docs/cmd-uncertainty.md).
void add_noise_replicates(sweep_plan& plan, unsigned k, uint64_t base_seed, double duration_s);

// "point-0000.json" for i = 0 (0-based, as Slurm array task ids are).
std::string point_file_name(size_t i);

// sweep.json: the manifest merge reads (file, sets, grid, point count).
std::string sweep_manifest_json(const sweep_plan& plan);
sweep_plan parse_sweep_manifest(const std::string& text, const std::string& what);

// Writes DIR/sweep.json and DIR/jobs.txt (one self-contained command per point, absolute
// paths, point i on line i+1). Throws std::runtime_error naming the path on failure.
void emit_jobs(const sweep_plan& plan, const std::string& exe, const std::string& dir);

// How point i's record differs from the plan ("key: 'x', sweep.json has 'y'"), or "" when its
// settings are exactly the point's --set list.
std::string stale_point(const sweep_plan& plan, size_t i, const run_record& rec);
// The point-*.json files already in dir, sorted; none if dir is missing.
std::vector<std::string> existing_point_files(const std::string& dir);

// Reads DIR/point-NNNN.json for every point (result i is point i). Missing or unreadable
// files are listed in `problems` (one message each) and left empty; a record whose settings
// are not its point's (another sweep's leftover) is listed in `stale_points` and left empty.
std::vector<std::optional<run_record>> load_points(const sweep_plan& plan, const std::string& dir,
                                                   std::vector<std::string>& problems,
                                                   std::vector<std::string>& stale_points);

// The CSV of a sweep: grid-key columns, then metrics (records_csv without wall time), one
// row per point present, in grid order.
std::string sweep_csv(const sweep_plan& plan, const std::vector<std::optional<run_record>>& pts);

}  // namespace nestvp

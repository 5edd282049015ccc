#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Charts and tables from benchmark JSON: `sort-test --bench --json` (vksort) and `cub-bench --json`.

    tools/plot-bench.py vksort.json cub.json --out bench.png   # Gkeys/s against count, one panel per key type
    tools/plot-bench.py vksort.json cub.json --table           # markdown: vksort and CUB side by side
    tools/plot-bench.py vksort.json cub.json --details         # markdown: every field, per configuration

Each line is one (library, key, value) configuration; the dashed line of the same colour is the
bandwidth floor sort-test measured for it (count / floor_ms: the least bytes the radix sort
must move, over the device's measured copy bandwidth), so the gap to the floor reads straight off the
chart. Files without a "library" field are taken to be sort-test's (vksort). The build a sort-test
file names (its vksort commit and tile) goes into the chart's subtitle and the --details tables, and
files from different builds are warned of.
"""

import argparse
import json
import math
import re
import signal
import sys

KEY_ORDER = ["u32", "i32", "f32", "u64", "i64", "f64"]
VALUE_ORDER = ["none", "u32", "u64", "index"]


def warn(message):
    print("plot-bench: warning: " + message, file=sys.stderr)


def order_index(name, order):
    return order.index(name) if name in order else len(order)


def load_json(path):
    """Parses a file; sort-test prints a zero-time point's rate as C's bare `inf`/`nan`, which is not
    JSON, so those tokens are turned into nulls (dropped later) rather than losing the whole file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        repaired = re.sub(r"(?<=[:\s\[,])-?(?:inf|nan|infinity)\b", "null", text, flags=re.IGNORECASE)
        return json.loads(repaired)


def number(entry, field):
    """A finite number from `entry[field]`, or None when it is missing or not usable."""
    value = entry.get(field)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


class Point:
    def __init__(self, library, device, key, value, count, rate, floor_rate, verified, dist="uniform"):
        self.library = library
        self.dist = dist              # the keys' distribution (--dist)
        self.device = device
        self.key = key
        self.value = value
        self.count = count
        self.rate = rate              # keys/s
        self.floor_rate = floor_rate  # keys/s at the bandwidth floor, or None
        self.verified = verified


class Source:
    """One JSON file: where it ran and its usable points."""

    def __init__(self, path, data):
        self.path = path
        self.device = str(data.get("device") or "unknown device")
        self.driver = str(data.get("driver") or "")
        self.runtime = str(data.get("runtime") or "")
        self.order = data.get("order")
        self.distribution = data.get("distribution")
        self.build = build_of(data)
        library = str(data.get("library") or "vksort")
        # A CUB sweep launched through graphs is a different measurement from one through the
        # stream: keep the two apart when both are plotted.
        if data.get("launch") == "graph":
            library += " (graph)"
        self.library = library
        self.points = []
        results = data.get("results")
        if not isinstance(results, list):
            warn(f"{path}: no 'results' list; skipped")
            return
        skipped = 0
        for entry in results:
            if not isinstance(entry, dict):
                skipped += 1
                continue
            key, value, count = entry.get("key"), entry.get("value", "none"), number(entry, "count")
            if not isinstance(key, str) or not isinstance(value, str) or not count or count <= 0:
                skipped += 1
                continue
            rate = number(entry, "keys_per_s")
            if rate is None or rate <= 0:
                median = number(entry, "median_ms")
                rate = count / (median * 1e-3) if median and median > 0 else None
            if rate is None or rate <= 0:
                skipped += 1
                continue
            floor_ms = number(entry, "floor_ms")
            floor_rate = count / (floor_ms * 1e-3) if floor_ms and floor_ms > 0 else None
            verified = str(entry.get("verified", "skipped"))
            # A per-result "library" (cub-bench writes one) wins only where it disagrees with the file's.
            own = entry.get("library")
            library_label = str(own) if own and str(own) != data.get("library", "vksort") else library
            self.points.append(Point(library_label, self.device, key, value, int(count), rate, floor_rate, verified,
                                     dist_of(entry, data)))
            if verified == "no":
                warn(f"{path}: {library_label} {key}/{value} at {int(count)} keys FAILED verification")
        if skipped:
            warn(f"{path}: {skipped} result(s) without key/count/time skipped")


def dist_of(entry, data):
    """The distribution of a result: its own "dist", else its file's "distribution" (files from before
    either was written had uniform keys)."""
    return str(entry.get("dist") or data.get("distribution") or "uniform")


def build_of(data):
    """What sort-test recorded of the build that ran ("vksort 1a2b3c4, tile 256 x 8"), None for other
    tools; files from before sort-test recorded it say so."""
    if data.get("library", "vksort") != "vksort":
        return None
    commit = data.get("vksort_commit") or "commit not recorded"
    tile = (f", tile {data['workgroup_size']} x {data['keys_per_thread']}"
            if "workgroup_size" in data and "keys_per_thread" in data else "")
    return f"vksort {commit}{tile}"


def load_objects(paths):
    """(path, top-level object) of each file that parses to a JSON object; the others are warned of."""
    for path in paths:
        try:
            data = load_json(path)
        except (OSError, ValueError) as error:
            warn(f"{path}: {error}; skipped")
            continue
        if not isinstance(data, dict):
            warn(f"{path}: not a JSON object; skipped")
            continue
        yield path, data


def load_sources(paths):
    sources = []
    for path, data in load_objects(paths):
        source = Source(path, data)
        if source.points:
            sources.append(source)
        else:
            warn(f"{path}: no usable results")
    return sources


def check_comparable(sources):
    """Warns when the files did not measure the same thing on the same device. Returns whether more
    than one device, and whether more than one distribution, is present (then labels name them)."""
    devices = sorted({s.device for s in sources})
    if len(devices) > 1:
        warn("files from different devices: " + "; ".join(devices) + " (lines are labelled by device)")
    dists = sorted({p.dist for s in sources for p in s.points})
    if len(dists) > 1:
        warn("results of different key distributions: " + ", ".join(dists) + " (lines are labelled by distribution)")
    for field in ("order", "build"):
        seen = sorted({str(getattr(s, field)) for s in sources if getattr(s, field) is not None})
        if len(seen) > 1:
            warn(f"files differ in {field}: {', '.join(seen)}")
    return len(devices) > 1, len(dists) > 1


def series_of(sources, multi_device, multi_dist=False):
    """{(label, key, value): {count: Point}} with the last file winning on duplicates."""
    series = {}
    for source in sources:
        for p in source.points:
            label = p.library + (f" {p.dist}" if multi_dist else "") + (f" [{p.device}]" if multi_device else "")
            points = series.setdefault((label, p.key, p.value), {})
            if p.count in points:
                warn(f"{source.path}: {label} {p.key}/{p.value} at {p.count} keys also in an earlier file; "
                     "using this one")
            points[p.count] = p
    return series


def labels_in_order(series):
    labels = []
    for label, _, _ in series:
        if label not in labels:
            labels.append(label)
    # vksort first: it is what the chart and table are about.
    return sorted(labels, key=lambda l: (not l.startswith("vksort"), labels.index(l)))


def title_of(sources):
    devices = sorted({s.device for s in sources})
    drivers = []
    for s in sources:
        text = s.library + ": " + ", ".join(x for x in (s.driver, s.runtime, s.build) if x)
        if text not in drivers and (s.driver or s.runtime or s.build):
            drivers.append(text)
    return "Radix sort throughput, " + " / ".join(devices), "\n".join(drivers)


def plot(sources, series, multi_device, out, single_panel, log_y):
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FixedLocator, FuncFormatter
    except ImportError:
        print("plot-bench: matplotlib is missing. Debian/Ubuntu: sudo apt-get install python3-matplotlib "
              "(then run this with /usr/bin/python3); elsewhere: python3 -m pip install matplotlib. "
              "--table needs no matplotlib.", file=sys.stderr)
        return False

    labels = labels_in_order(series)
    keys = sorted({k for _, k, _ in series}, key=lambda k: (order_index(k, KEY_ORDER), k))
    values = sorted({v for _, _, v in series}, key=lambda v: (order_index(v, VALUE_ORDER), v))
    panels = [None] if single_panel else keys

    # Colour: the configuration (value kind within a key panel; key and value on one panel).
    # Line style and marker: the library. Dashed without markers: the floor.
    configs = [(k, v) for k in keys for v in values]
    palette = plt.get_cmap("tab10" if (len(values) if not single_panel else len(configs)) <= 10 else "tab20").colors
    def colour(key, value):
        index = values.index(value) if not single_panel else configs.index((key, value))
        return palette[index % len(palette)]
    styles = [("-", "o", "full"), ("-.", "s", "none"), (":", "^", "full"), ("-", "D", "none")]
    style_of = {label: styles[i % len(styles)] for i, label in enumerate(labels)}

    columns = 1 if len(panels) == 1 else 2
    rows = (len(panels) + columns - 1) // columns
    # A single panel with many configurations puts its legend beside the axes, not over the lines.
    legend_outside = single_panel and len(configs) > 4
    width = 7.5 * columns + (4.5 if legend_outside else 0)
    fig, axes = plt.subplots(rows, columns, figsize=(width, 4.6 * rows + 0.9), squeeze=False)
    all_counts = sorted({c for points in series.values() for c in points})
    for index, panel in enumerate(panels):
        ax = axes[index // columns][index % columns]
        measured, floors_at_top = [], []
        handles = []
        for (label, key, value), points in sorted(series.items(), key=lambda item: (
                labels.index(item[0][0]), order_index(item[0][1], KEY_ORDER), order_index(item[0][2], VALUE_ORDER))):
            if panel is not None and key != panel:
                continue
            counts = sorted(points)
            rates = [points[c].rate * 1e-9 for c in counts]
            line, marker, fill = style_of[label]
            name = f"{label} {value}" if panel is not None else f"{label} {key}/{value}"
            handle, = ax.plot(counts, rates, linestyle=line, marker=marker, fillstyle=fill, markersize=4.5,
                              linewidth=1.6, color=colour(key, value), label=name)
            handles.append(handle)
            measured.extend(rates)
            failed = [c for c in counts if points[c].verified == "no"]
            if failed:
                ax.plot(failed, [points[c].rate * 1e-9 for c in failed], linestyle="none", marker="x", markersize=10,
                        color="red", label=None)
        # One floor per configuration (and device: it is that device's bandwidth), from whichever
        # file carries floor_ms (sort-test's).
        floors = {}
        for (label, key, value), points in series.items():
            if panel is not None and key != panel:
                continue
            for count, p in points.items():
                if p.floor_rate is not None:
                    device = p.device if multi_device else ""
                    floors.setdefault((key, value, device), {})[count] = p.floor_rate * 1e-9
        floor_devices = sorted({device for _, _, device in floors})
        for (key, value, device), floor in sorted(floors.items(), key=lambda item: (
                order_index(item[0][0], KEY_ORDER), order_index(item[0][1], VALUE_ORDER), item[0][2])):
            counts = sorted(floor)
            dashes = [(0, (5, 3)), (0, (1.5, 2)), (0, (8, 2, 1.5, 2))][floor_devices.index(device) % 3]
            name = f"vksort floor {value}" if panel is not None else f"vksort floor {key}/{value}"
            handle, = ax.plot(counts, [floor[c] for c in counts], linestyle=dashes, linewidth=1.0, alpha=0.75,
                              color=colour(key, value), label=name + (f" [{device}]" if device else ""))
            handles.append(handle)
            floors_at_top.append(floor[counts[-1]])  # the floor's own ceiling: the largest count
        # The floor of a small sort is a few nanoseconds, so it would shoot off the chart: the axis
        # stops a little above the higher of the measurements and the floor at the largest count.
        top = max(measured + floors_at_top) if measured else 1.0
        ax.set_xscale("log", base=2)
        if log_y:
            ax.set_yscale("log")
            bottom = min(measured) / 1.5 if measured else 1e-3
            ax.set_ylim(bottom, top * 1.6)
        else:
            ax.set_ylim(0, top * 1.08)
        ticks = [c for c in all_counts if c & (c - 1) == 0] or all_counts
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_minor_locator(FixedLocator([]))
        ax.xaxis.set_major_formatter(FuncFormatter(
            lambda c, _: f"$2^{{{int(round(math.log2(c)))}}}$" if c > 0 and int(c) & (int(c) - 1) == 0 else f"{c:g}"))
        ax.grid(True, which="major", alpha=0.3)
        ax.set_xlabel("keys")
        ax.set_ylabel("Gkeys/s")
        if panel is not None:
            ax.set_title(f"{panel} keys", fontsize=11)
        # Where the lines are not: top left on a linear axis (small sorts sit near zero), bottom
        # right on a logarithmic one (every line rises to the right).
        if legend_outside:
            ax.legend(handles=handles, fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      ncol=2 if len(handles) > 24 else 1)
        else:
            ax.legend(handles=handles, fontsize=7.5, loc="lower right" if log_y else "upper left",
                      ncol=2 if len(handles) > 8 else 1, framealpha=0.85)
    for index in range(len(panels), rows * columns):
        axes[index // columns][index % columns].set_visible(False)

    title, subtitle = title_of(sources)
    # One title line, then one line per library's driver; tight_layout leaves room for all of them.
    fig.suptitle(title + ("\n" + subtitle if subtitle else ""), fontsize=10.5)
    fig.text(0.5, 0.004, "Measured: median of the timed sorts. Dashed: vksort's bandwidth floor (sort-test's floor_ms);\n"
             "CUB's passes move fewer bytes per key, so CUB can pass it. Red x: verification failed.",
             ha="center", va="bottom", fontsize=7.5, color="0.35")
    fig.tight_layout(rect=(0, 0.045 * 5.5 / fig.get_figheight(), 1, 1))
    fig.savefig(out, dpi=130)
    print(f"plot-bench: wrote {out}")
    return True


def table(series):
    """Markdown: one row per (key, value, count), one Gkeys/s column per library, and vksort over each
    other library (above 1: vksort is faster)."""
    labels = labels_in_order(series)
    base = next((l for l in labels if l.startswith("vksort")), None)
    others = [l for l in labels if l != base]
    rows = sorted({(k, v, c) for (_, k, v), points in series.items() for c in points},
                  key=lambda r: (order_index(r[0], KEY_ORDER), r[0], order_index(r[1], VALUE_ORDER), r[1], r[2]))

    def name(label):
        return "CUB" + label[3:] if label.startswith("cub") else label

    header = ["count", "key", "value"] + [f"{name(l)} Gkeys/s" for l in labels]
    if base is not None:
        header += [f"{name(base)}/{name(l)}" for l in others]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---:", ":---", ":---"] + ["---:"] * (len(header) - 3)) + "|")
    for key, value, count in rows:
        cells = [str(count), key, value]
        rates = {}
        for label in labels:
            p = series.get((label, key, value), {}).get(count)
            if p is None:
                cells.append("–")
                continue
            rates[label] = p.rate
            cells.append(f"{p.rate * 1e-9:.3f}" + (" (verify FAILED)" if p.verified == "no" else ""))
        if base is not None:
            for label in others:
                if base in rates and label in rates:
                    cells.append(f"{rates[base] / rates[label]:.2f}")
                else:
                    cells.append("–")
        print("| " + " | ".join(cells) + " |")
    return True


def first_step_field(entry):
    return next((f for f in ("counts_ms", "histogram_ms", "count_ms") if f in entry), "counts_ms")


def pow2_name(count):
    return f"2^{count.bit_length() - 1}" if count & (count - 1) == 0 else str(count)


def details(paths):
    """Markdown: one table per vksort (key, value), every timing field sort-test wrote, with CUB's
    median for the same point where a CUB file is given (docs/PERFORMANCE.md's tables)."""
    vksort, cub, builds = [], {}, []
    for path, data in load_objects(paths):
        results = data.get("results")
        if not isinstance(results, list):
            continue
        if build_of(data):
            builds.append(f"{build_of(data)} ({path})")
        for entry in results:
            if not isinstance(entry, dict) or number(entry, "count") is None:
                continue
            dist = dist_of(entry, data)
            if data.get("library") == "cub":
                if data.get("launch", "stream") == "stream":
                    cub[(dist, entry.get("key"), entry.get("value"), int(entry["count"]))] = number(entry, "median_ms")
            else:
                vksort.append(dict(entry, dist=dist))
    if not vksort:
        warn("--details: no sort-test results")
        return False
    configs = sorted({(e["dist"], e["key"], e["value"]) for e in vksort},
                     key=lambda c: (c[0] != "uniform", c[0], order_index(c[1], KEY_ORDER), order_index(c[2], VALUE_ORDER)))

    def fmt(entry, field, spec, scale=1.0):
        v = number(entry, field)
        return "-" if v is None else format(v * scale, spec)

    print("Built from: " + "; ".join(builds) + "\n")
    for dist, key, value in configs:
        print(f"### {key} keys, {value} values" + (f", {dist} keys" if dist != "uniform" else "") + "\n")
        print("| count | median ms (min-max) | Gkeys/s | counts/scan/reorder ms | B/key | shader copy GB/s | floor ms "
              "| % of floor | CUB ms | vksort/CUB | std::sort ms | verified |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|")
        rows = sorted((e for e in vksort if (e["dist"], e["key"], e["value"]) == (dist, key, value)),
                      key=lambda e: e["count"])
        for e in rows:
            count = int(e["count"])
            median = number(e, "median_ms")
            cub_ms = cub.get((dist, key, value, count))
            cpu = number(e, "cpu_sort_ms")
            cells = [pow2_name(count),
                     f"{fmt(e, 'median_ms', '.4f')} ({fmt(e, 'min_ms', '.4f')}-{fmt(e, 'max_ms', '.4f')})",
                     fmt(e, "keys_per_s", ".2f", 1e-9),
                     # The first step's time: counts_ms; histogram_ms and, before that, count_ms in
                     # results written while a second offset method ran a histogram there.
                     f"{fmt(e, first_step_field(e), '.3f')} / "
                     f"{fmt(e, 'scan_ms', '.3f')} / {fmt(e, 'reorder_ms', '.3f')}",
                     fmt(e, "bytes_per_key", ".0f"), fmt(e, "shader_copy_bytes_per_s", ".0f", 1e-9),
                     fmt(e, "floor_ms", ".4f"), fmt(e, "fraction_of_floor", ".0%"),
                     "-" if cub_ms is None else f"{cub_ms:.4f}",
                     "-" if cub_ms is None or not median else f"{cub_ms / median:.2f}",
                     "-" if not cpu else f"{cpu:.1f}", str(e.get("verified", "-"))]
            print("| " + " | ".join(cells) + " |")
        print()
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="JSON from sort-test --bench --json or cub-bench --json")
    parser.add_argument("--out", help="write the chart to this PNG")
    parser.add_argument("--table", action="store_true", help="print a markdown table, vksort and CUB side by side")
    parser.add_argument("--single", action="store_true", help="one panel for all key types (default: one per key type)")
    parser.add_argument("--log-y", action="store_true", help="logarithmic Gkeys/s axis (shows small counts better)")
    parser.add_argument("--details", action="store_true", help="print markdown tables of every field, per configuration")
    args = parser.parse_args()
    if not args.out and not args.table and not args.details:
        parser.error("nothing to do: give --out FILE, --table, --details, or several")
    if args.details and not (args.out or args.table):
        return 0 if details(args.files) else 1

    sources = load_sources(args.files)
    if not sources:
        print("plot-bench: no usable results in " + ", ".join(args.files), file=sys.stderr)
        return 1
    multi_device, multi_dist = check_comparable(sources)
    series = series_of(sources, multi_device, multi_dist)
    ok = True
    if args.details:
        ok = details(args.files) and ok
    if args.table:
        ok = table(series) and ok
    if args.out:
        ok = plot(sources, series, multi_device, args.out, args.single, args.log_y) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    # `... --table | head` should end quietly, not with a traceback.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())

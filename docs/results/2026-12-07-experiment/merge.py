"""Concatenates the runs' steps.csv and flash-crowd.csv (identical headers) into the set's top-level files."""
import csv, sys, pathlib
root = pathlib.Path(sys.argv[1])
runs = ["browsing-tls1.3", "browsing-tls1.3-6-connections", "bidding-tls1.3", "browsing-tls1.2", "browsing-tls1.3-2-cpus"]
for name in ["steps.csv", "flash-crowd.csv"]:
    header, rows = None, []
    for run in runs:
        f = root / run / name
        if not f.exists():
            continue
        with f.open() as h:
            r = list(csv.reader(h))
        if header is None:
            header = r[0]
        assert r[0] == header, f"{f}: header differs"
        rows += r[1:]
    with (root / name).open("w", newline="") as h:
        w = csv.writer(h, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(name, len(rows), "rows")

"""Layout checks of a rendered page, shared by the browser tests of every page (the C++ report's
fit, compare, joint and actuator sections, the fleet page).

    from layout import layout_problems
    assert layout_problems(page) == []

Each check returns a list of human-readable problems (empty when the page is right), so a failing
test names what is wrong and where. The checks read the rendered geometry (getBoundingClientRect,
the SVG geometry API) and a small DOM contract every plot of the project follows:

- a plot is ``svg.plot`` (``data-plot`` names its kind);
- a panel of a plot (its plotting area) is ``g.panel`` with ``data-xrange="lo hi"`` and
  ``data-yrange="lo hi"``: the axis ranges drawn, in data units;
- ``data-ydata="min max"`` on the panel: the finite range of the data it draws (absent when
  there is none); ``data-ykind="count"`` when its y values are counts (a histogram);
- a drawn series is an element with ``data-series="NAME"`` inside its panel (a polyline, a path,
  a group of dots or bars); the plot's legend has an element ``data-legend="NAME"`` for it;
  a panel with a single series may leave its name empty (the axis label names it).

The checks:

- ``text_overlaps``: no two non-empty texts of a plot overlap on screen (tick labels, axis labels,
  legend entries, titles);
- ``outside_page``: no element extends beyond the window's right edge, unless it is inside a box
  that scrolls sideways (overflow-x auto or scroll);
- ``missing_legends``: every series of a panel with two or more series has a name and a legend
  entry with that name;
- ``bad_ranges``: every panel's axis ranges are finite and increasing, contain its data, and start
  at or above 0 for counts;
- ``legend_covers_data``: no legend box covers a drawn point of a series (sampled along every
  line and path at 2 px steps, every dot).
"""

from __future__ import annotations

_TEXT_OVERLAPS = """(() => {
  const out = [];
  document.querySelectorAll('svg.plot').forEach((svg, si) => {
    const boxes = Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim())
      .map(t => [t.textContent.trim(), t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, ra] = boxes[i], [b, rb] = boxes[j];
        const ox = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const oy = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (ox > 0.5 && oy > 0.5)
          out.push(`plot ${si} (${svg.dataset.plot}): "${a}" overlaps "${b}"`);
      }
  });
  return out;
})()"""

_OUTSIDE_PAGE = """(() => {
  const w = document.documentElement.clientWidth, out = [];
  const scrolls = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  document.querySelectorAll('body *').forEach(el => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= w + 1 || scrolls(el)) return;
    const what = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                 (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    out.push(`${what} ends at x = ${Math.round(r.right)} px, beyond the window's ${w} px`);
  });
  return out.slice(0, 20);
})()"""

_MISSING_LEGENDS = """(() => {
  const out = [];
  document.querySelectorAll('svg.plot').forEach((svg, si) => {
    const legend = new Set(Array.from(svg.querySelectorAll('[data-legend]')).map(e => e.dataset.legend));
    svg.querySelectorAll('g.panel').forEach((panel, pi) => {
      const names = Array.from(panel.querySelectorAll('[data-series]')).map(e => e.dataset.series);
      if (names.length < 2) return;
      names.forEach(n => {
        if (!n) out.push(`plot ${si} (${svg.dataset.plot}) panel ${pi}: a series without a name among ${names.length}`);
        else if (!legend.has(n)) out.push(`plot ${si} (${svg.dataset.plot}) panel ${pi}: series "${n}" is not in the legend`);
      });
    });
  });
  return out;
})()"""

_BAD_RANGES = """(() => {
  const out = [];
  const pair = s => (s || '').trim().split(/\\s+/).map(Number);
  document.querySelectorAll('svg.plot').forEach((svg, si) => {
    svg.querySelectorAll('g.panel').forEach((panel, pi) => {
      const where = `plot ${si} (${svg.dataset.plot}) panel ${pi}`;
      const ok = r => r.length === 2 && r.every(Number.isFinite) && r[0] < r[1];
      const xr = pair(panel.dataset.xrange), yr = pair(panel.dataset.yrange);
      if (!ok(xr)) out.push(`${where}: x range "${panel.dataset.xrange}" is not a finite increasing pair`);
      if (!ok(yr)) { out.push(`${where}: y range "${panel.dataset.yrange}" is not a finite increasing pair`); return; }
      if (panel.dataset.ydata !== undefined) {
        const d = pair(panel.dataset.ydata), tol = 1e-9 * (yr[1] - yr[0]);
        if (d.length === 2 && (d[0] < yr[0] - tol || d[1] > yr[1] + tol))
          out.push(`${where}: the data ${d[0]}..${d[1]} leaves the y range ${yr[0]}..${yr[1]}`);
      }
      if (panel.dataset.ykind === 'count' && yr[0] < 0)
        out.push(`${where}: counts on a y axis starting at ${yr[0]}`);
    });
  });
  return out;
})()"""

_LEGEND_COVERS_DATA = """(() => {
  const out = [];
  const inside = (p, r) => p.x > r.left + 1 && p.x < r.right - 1 && p.y > r.top + 1 && p.y < r.bottom - 1;
  const screen = (el, x, y) => {
    const m = el.getScreenCTM(), pt = el.ownerSVGElement.createSVGPoint();
    pt.x = x; pt.y = y;
    const q = pt.matrixTransform(m);
    return {x: q.x, y: q.y};
  };
  const points = el => {
    const pts = [];
    const shapes = el instanceof SVGGeometryElement ? [el] : Array.from(el.querySelectorAll('*'))
      .filter(c => c instanceof SVGGeometryElement);
    for (const s of shapes) {
      if (s instanceof SVGCircleElement) { pts.push(screen(s, s.cx.baseVal.value, s.cy.baseVal.value)); continue; }
      if (s instanceof SVGRectElement) {
        const r = s.getBoundingClientRect(); pts.push({x: (r.left + r.right) / 2, y: r.top}); continue;
      }
      const n = s.getTotalLength();
      for (let l = 0; l <= n; l += 2) { const p = s.getPointAtLength(l); pts.push(screen(s, p.x, p.y)); }
    }
    return pts;
  };
  document.querySelectorAll('svg.plot').forEach((svg, si) => {
    const legends = Array.from(svg.querySelectorAll('g.legend')).map(g => g.getBoundingClientRect());
    if (!legends.length) return;
    svg.querySelectorAll('[data-series]').forEach(s => {
      const hit = points(s).find(p => legends.some(r => inside(p, r)));
      if (hit) out.push(`plot ${si} (${svg.dataset.plot}): the legend covers series "${s.dataset.series}" at (${Math.round(hit.x)}, ${Math.round(hit.y)})`);
    });
  });
  return out;
})()"""

CHECKS = {
    "text_overlaps": _TEXT_OVERLAPS,
    "outside_page": _OUTSIDE_PAGE,
    "missing_legends": _MISSING_LEGENDS,
    "bad_ranges": _BAD_RANGES,
    "legend_covers_data": _LEGEND_COVERS_DATA,
}


def check(page, name):
    """The problems one check (a key of CHECKS) finds on `page` (a chromium.Page)."""
    return page.evaluate(CHECKS[name])


def layout_problems(page, skip=()):
    """Every problem of every check but those in `skip`, each prefixed with its check's name."""
    out = []
    for name in CHECKS:
        if name not in skip:
            out += [f"{name}: {p}" for p in check(page, name)]
    return out


def plot_count(page):
    """How many plots and panels the page has (a page whose plots lack the contract has panels 0:
    tests assert it is positive so the checks cannot pass vacuously)."""
    return page.evaluate("""[document.querySelectorAll('svg.plot').length,
                             document.querySelectorAll('svg.plot g.panel').length]""")

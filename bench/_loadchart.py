"""The load curve as a hand-written SVG: p99 latency and throughput against concurrent matches."""
import math
from html import escape

WIDTH, HEIGHT = 920, 380
PANEL_W, PANEL_H = 360, 260
TOP, LEFT = 60, 80
COLOURS = {"game": "#1f77b4", "echo": "#999999", "spectator": "#2ca02c", "paced": "#ff7f0e"}


def _nice_max(value):
    if value <= 0:
        return 1
    magnitude = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def _panel(x0, title, levels, series, y_label, log=False, target=None):
    """One chart: ``series`` is [(label, colour, [value per level or None], dashed)]."""
    values = [v for _label, _colour, points, _dash in series for v in points if v is not None]
    if target:
        values.append(target)
    out = [f'<g transform="translate({x0},{TOP})">']
    out.append(f'<text x="{PANEL_W / 2}" y="-30" text-anchor="middle" font-weight="bold">{escape(title)}</text>')
    out.append(f'<rect x="0" y="0" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#333"/>')
    if log:
        low = 10 ** math.floor(math.log10(max(min(values or [1]), 0.1)))
        high = 10 ** math.ceil(math.log10(max(values or [10])))
        high = max(high, low * 10)

        def y(v):
            return PANEL_H - PANEL_H * (math.log10(max(v, low)) - math.log10(low)) / (math.log10(high) - math.log10(low))

        ticks = [10**e for e in range(int(math.log10(low)), int(math.log10(high)) + 1)]
    else:
        high = _nice_max(max(values or [1]))

        def y(v):
            return PANEL_H - PANEL_H * v / high

        ticks = [high * i / 5 for i in range(6)]
    for tick in ticks:
        ty = y(tick)
        out.append(f'<line x1="0" x2="{PANEL_W}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="-6" y="{ty + 4:.1f}" text-anchor="end" font-size="11">{tick:g}</text>')
    step = PANEL_W / max(len(levels), 1)

    def x(i):
        return step * (i + 0.5)

    for i, level in enumerate(levels):
        out.append(f'<text x="{x(i):.1f}" y="{PANEL_H + 16}" text-anchor="middle" font-size="11">{level}</text>')
    out.append(f'<text x="{PANEL_W / 2}" y="{PANEL_H + 34}" text-anchor="middle" font-size="12">concurrent matches</text>')
    out.append(
        f'<text transform="translate(-55,{PANEL_H / 2}) rotate(-90)" text-anchor="middle" font-size="12">{escape(y_label)}</text>'
    )
    if target:
        out.append(
            f'<line x1="0" x2="{PANEL_W}" y1="{y(target):.1f}" y2="{y(target):.1f}" stroke="#d62728" stroke-dasharray="6 4"/>'
        )
        out.append(f'<text x="{PANEL_W - 4}" y="{y(target) - 4:.1f}" text-anchor="end" font-size="11" fill="#d62728">target {target:g}</text>')
    for row, (label, colour, points, dashed) in enumerate(series):
        coords = [(x(i), y(v)) for i, v in enumerate(points) if v is not None]
        dash = ' stroke-dasharray="4 3"' if dashed else ""
        if coords:
            path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
            out += [f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="{colour}"/>' for cx, cy in coords]
        ly = 14 + 16 * row
        out.append(f'<line x1="10" x2="30" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="36" y="{ly + 4}" font-size="11">{escape(label)}</text>')
    out.append("</g>")
    return out


def render(levels, curve, title, target_ms=100):
    """``curve``: {level: {"game_paced": summary, "game_saturated": ..., "echo_paced": ..., "echo_saturated": ...}}."""

    def pick(run, field, sub=None):
        points = []
        for level in levels:
            summary = curve.get(level, {}).get(run)
            value = summary and summary.get(field)
            points.append(value.get(sub) if isinstance(value, dict) and sub else value)
        return points

    latency = _panel(
        LEFT,
        "p99 latency, command sent → received (paced play)",
        levels,
        [
            ("match: opponent", COLOURS["game"], pick("game_paced", "opponent_ms", "p99"), False),
            ("match: spectator", COLOURS["spectator"], pick("game_paced", "spectator_ms", "p99"), False),
            ("echo: opponent", COLOURS["echo"], pick("echo_paced", "opponent_ms", "p99"), True),
        ],
        "milliseconds (log scale)",
        log=True,
        target=target_ms,
    )
    throughput = _panel(
        LEFT + PANEL_W + 110,
        "throughput, commands applied per second",
        levels,
        [
            ("match, no think time", COLOURS["game"], pick("game_saturated", "commands_per_s"), False),
            ("echo, no think time", COLOURS["echo"], pick("echo_saturated", "commands_per_s"), True),
            ("match, paced", COLOURS["paced"], pick("game_paced", "commands_per_s"), False),
        ],
        "commands / s",
    )
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
            'font-family="sans-serif" font-size="12">',
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
            f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="13">{escape(title)}</text>',
            *latency,
            *throughput,
            "</svg>",
            "",
        ]
    )

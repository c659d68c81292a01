"""A replay as one self-contained HTML file: an SVG picture per ply, the move list, keys.

Everything in the file comes from one player's observations, ply by ply (`frames`): the
picture of `state.observation(p)`, the move as that observation's history showed it then
(another player's secret choice is "(secret choice)"), the sites whose pieces changed in that
observation (the last move, highlighted) and, once the observation shows the scores (at the
end), each player's score breakdown. Nothing else of the state is read, so a file made for
player p holds nothing p could not see at that ply. The page uses no network: the pictures
and the frames' JSON are inline, the script is inline, and a Content-Security-Policy allows
nothing else. Keys: ← → step, Home / End jump; `#ply=N` in the address opens ply N.
"""
from __future__ import annotations

import html
import json
from typing import Any

from rulelang.tools.pictures.fonts import FAMILY, fallback, needed
from rulelang.tools.pictures.picture import Shape, board_shape, draw

Obs = dict[str, Any]


def frames(game: Any, seed: int, actions: list[str], player: int) -> list[dict[str, Any]]:
    """One frame per entry of the history as `player` saw it, from 0 (the start) to the end
    of `actions`: a run of another player's secret choices is one entry (engine.py,
    shown_history), so it is one frame, the position after the run's last choice; the
    page tells no more than the observation of how many there were."""
    shape = board_shape(game)
    state = game.new_initial_state(seed=seed)
    out = [_frame(state, player, None, shape, 0)]
    out[0]["mover"] = None
    names = list(game.player_names)
    for text in actions:
        mover = state.current_player()
        state.apply_action(text)
        ply = len(state.observation(player)["history"])
        if ply == out[-1]["ply"] and len(out) > 1:  # the same run of secret choices
            out[-1] = _frame(state, player, out[-2]["_obs"], shape, ply)
        else:
            out.append(_frame(state, player, out[-1]["_obs"], shape, ply))
        # who moved; a run of others' secret choices is said without names
        secret = str(out[-1]["move"]).startswith("(secret")
        out[-1]["mover"] = None if secret or not 0 <= mover < len(names) else names[mover]
    for frame in out:
        del frame["_obs"]
    return out


def position(state: Any, player: int, before: Obs | None = None,
             shape: Shape | None = None, fonts: bool = True) -> str:
    """The SVG of one position as `player` sees it (the last move's sites highlighted when
    the observation `before` it is given; with `fonts`, the glyphs of its names embedded:
    fonts.py)."""
    obs = state.observation(player)
    return draw(obs, shape or board_shape(state.game), changed(before, obs), fonts)


def changed(before: Obs | None, after: Obs) -> set[str]:
    """The sites whose pieces differ between two observations of one player."""
    if before is None:
        return set()
    old = {s["site"]: s["pieces"] for s in before["board"]}
    return {s["site"] for s in after["board"] if old.get(s["site"]) != s["pieces"]}


def _frame(state: Any, player: int, before: Obs | None, shape: Shape, ply: int) -> dict[str, Any]:
    obs = state.observation(player)
    history = obs["history"]
    move = history[ply - 1] if 0 < ply <= len(history) else None
    breakdown = None
    if obs.get("scores") is not None:  # the observation shows the scores: the end
        breakdown = [{"player": name, "score": score,
                      "terms": {k: v for k, v in state.score_breakdown(i).items() if v}}
                     for i, (name, score) in enumerate(zip(obs["players"], obs["scores"],
                                                           strict=False))]
    return {"ply": ply, "move": move, "svg": draw(obs, shape, changed(before, obs), fonts=False),
            "scores": breakdown, "_obs": obs}


_CSS = """
body { font-family: sans-serif; margin: 0; color: #222; }
header { padding: 8px 16px; background: #F2F2F2; border-bottom: 1px solid #CCC; }
header h1 { font-size: 18px; display: inline; margin-right: 16px; }
main { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; }
aside { min-width: 220px; max-height: 85vh; overflow-y: auto; }
#moves { padding-left: 3em; margin: 0; }
#moves .mover { font-weight: bold; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.current { background: #F0E442; font-weight: bold; }
#scores table { border-collapse: collapse; margin-top: 12px; }
#scores td, #scores th { border: 1px solid #CCC; padding: 2px 6px; text-align: left; }
button { font-size: 14px; }
#fonts { margin: 6px 0 0; color: #8A3B00; }
"""

_SCRIPT = """
(function () {
  const frames = JSON.parse(document.getElementById('frames').textContent);
  const board = document.getElementById('board');
  const where = document.getElementById('where');
  const scores = document.getElementById('scores');
  const items = Array.from(document.querySelectorAll('#moves li'));
  let ply = -1;
  function esc(t) {
    return String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
                                               '"': '&quot;'}[c]));
  }
  function table(rows) {
    if (!rows) return '';
    let out = '<table><tr><th>player</th><th>score</th><th>breakdown</th></tr>';
    for (const r of rows) {
      const terms = Object.entries(r.terms).map(([k, v]) => esc(k) + ' ' + esc(v)).join(', ');
      out += '<tr><td>' + esc(r.player) + '</td><td>' + esc(r.score) + '</td><td>' +
             (terms || 'no points') + '</td></tr>';
    }
    return out + '</table>';
  }
  function show(n) {
    n = Math.max(0, Math.min(frames.length - 1, n | 0));
    if (n === ply) return;
    ply = n;
    const f = frames[n];
    board.innerHTML = f.svg;
    where.textContent = 'ply ' + n + ' / ' + (frames.length - 1) +
      (f.move ? ': ' + f.move : '');
    for (const li of items) li.classList.toggle('current', +li.dataset.ply === n);
    const cur = items[n - 1];
    if (cur) cur.scrollIntoView({block: 'nearest'});
    scores.innerHTML = table(f.scores);
    document.body.dataset.ply = String(n);
    if (location.hash !== '#ply=' + n) {
      try { history.replaceState(null, '', '#ply=' + n); } catch (e) { /* file: */ }
    }
  }
  function fromHash() {
    const m = /ply=(\\d+)/.exec(location.hash);
    return m ? +m[1] : 0;
  }
  document.addEventListener('keydown', e => {
    const to = {ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0,
                End: frames.length - 1}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  for (const li of items) li.addEventListener('click', () => show(+li.dataset.ply));
  for (const b of document.querySelectorAll('button[data-step]')) {
    b.addEventListener('click', () => {
      const s = b.dataset.step;
      show(s === 'first' ? 0 : s === 'last' ? frames.length - 1 : ply + (+s));
    });
  }
  window.addEventListener('hashchange', () => show(fromHash()));
  // names in Japanese, Chinese or Korean need a font with those characters: where the
  // browser has none, two different characters are drawn as the same empty box; say so
  const cjk = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
  // (the glyphs embedded in the page, family "rulelang-names", count as a font)
  function drawn(ch) {
    const c = document.createElement('canvas');
    c.width = c.height = 40;
    const g = c.getContext('2d');
    g.font = '32px "rulelang-names", sans-serif';
    g.fillText(ch, 2, 32);
    return Array.from(g.getImageData(0, 0, 40, 40).data).join(',');
  }
  const named = frames.map(f => f.svg).join('').match(cjk);
  function check() {
    if (named && drawn('\u540d') === drawn('\u5712') && drawn(named[0]) === drawn('\u5712')) {
      const note = document.getElementById('fonts');
      note.hidden = false;
      note.textContent = 'This game\u2019s names are in Japanese (or Chinese) and this ' +
        'browser has no font for them, so they show as boxes: install a CJK font ' +
        '(e.g. Noto Sans CJK: apt install fonts-noto-cjk).';
    }
    document.body.dataset.fonts = 'checked';
  }
  if (named) {
    document.fonts.load('32px "rulelang-names"', named[0]).then(check, check);
  } else {
    check();
  }
  show(fromHash());
})();
"""


def page(title: str, viewer: str, shots: list[dict[str, Any]]) -> str:
    """The HTML text of the viewer for the frames of `frames()`."""
    moves = "".join(f'<li data-ply="{f["ply"]}">' + (
        f'<span class="mover">{html.escape(f["mover"])}</span> ' if f.get("mover") else "")
        + f'{html.escape(str(f["move"] or "…"))}</li>' for f in shots[1:])
    data = json.dumps(shots, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c")  # no "</script>" inside the JSON
    policy = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
              "img-src data:; font-src data:")
    # the glyphs of the names beyond Latin, once for every frame (fonts.py)
    found = fallback(needed([title, viewer, moves] + [f["svg"] for f in shots]))
    fonts = found.css + (f'body, svg text {{ font-family: "{FAMILY}", sans-serif; }}\n'
                         if found.css else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<title>{html.escape(title)}</title><style>{fonts}{_CSS}</style></head>
<body data-ply="0"><header><h1>{html.escape(title)}</h1>
<span class="as">as {html.escape(viewer)}</span>
<button data-step="first" title="Home">&laquo;</button><button data-step="-1" title="←">◀</button>
<button data-step="1" title="→">▶</button><button data-step="last" title="End">&raquo;</button>
<span id="where"></span><p id="fonts" hidden></p></header>
<main><div id="board"></div><aside><ol id="moves">{moves}</ol><div id="scores"></div>
</aside></main>
<script type="application/json" id="frames">{data}</script>
<script>{_SCRIPT}</script>
</body></html>
"""


def replay_page(game: Any, seed: int, actions: list[str], player: int) -> str:
    """The whole viewer of a game, as `player` saw it."""
    name = str(game.player_names[player])
    return page(f"{game.name}", name, frames(game, seed, actions, player))

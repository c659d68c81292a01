// The table page of `rulelang serve`: draws the views its websocket brings (built by the
// server from this seat's observation only) and sends this seat's moves.
// A move is made by clicking what it names on the board (a site, a card, a zone): each
// click narrows the moves to those naming everything clicked, and a single one left is
// played; the list of moves is always there too. Keys: Tab and Enter, 1-9 play the listed
// moves, Esc clears the clicks.
(function () {
  'use strict';
  const parts = location.pathname.split('/');
  const tableId = parts[2], token = parts[3];
  const $ = (id) => document.getElementById(id);
  let view = null, picked = [], socket = null, wait = 400, pending = false, gone = false;

  function words(label) { return label.split(/[\s(),]+/).filter(Boolean); }

  function holds(have, want) {  // multiset inclusion
    const left = have.slice();
    for (const w of want) {
      const i = left.indexOf(w);
      if (i < 0) return false;
      left.splice(i, 1);
    }
    return true;
  }

  function options() { return (view && view.options) || []; }
  function matching(sel) { return options().filter((o) => holds(words(o), sel)); }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(scheme + '//' + location.host + '/ws/' + tableId + '/' + token);
    socket.onopen = () => { wait = 400; $('link').textContent = 'connected'; };
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'view') show(m);
      else if (m.type === 'error') { pending = false; flash(m.message + (m.help ? ' — ' + m.help : '')); drawMoves(); }
    };
    socket.onclose = (e) => {
      document.body.dataset.link = 'closed';
      if (e.code === 4403) { gone = true; $('link').textContent = 'this link opens no seat'; return; }
      $('link').textContent = 'disconnected: reconnecting…';
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 4000);
    };
  }

  function send(message) {
    if (socket && socket.readyState === 1) { socket.send(JSON.stringify(message)); return true; }
    flash('not connected: try again in a moment');
    return false;
  }

  function flash(text) { $('flash').textContent = text; }

  function act(label) {
    if (pending || !view || !view.turn) return;
    if (send({type: 'act', action: label, turn: view.turn})) {
      pending = true;
      document.body.dataset.state = 'sent';
      document.body.dataset.sent = String((+document.body.dataset.sent || 0) + 1);
    }
  }

  function show(v) {
    view = v; picked = []; pending = false;
    document.body.dataset.link = 'open';
    document.body.dataset.views = String((+document.body.dataset.views || 0) + 1);
    $('board').innerHTML = v.svg;
    $('status').textContent = v.over ? 'game over' :
      (v.options ? 'your move' : (v.to_move ? v.to_move + ' to move' : ''));
    const t = $('thinking');
    t.hidden = !v.thinking;
    t.textContent = v.thinking ? v.thinking + ' is thinking…' : '';
    flash(v.error || v.notice || '');
    drawZones(v.zones);
    $('scores').textContent = (v.scores || []).join('\n');
    const log = $('log');
    log.innerHTML = '';
    v.history.forEach((entry, i) => {
      const li = document.createElement('li');
      const who = (v.movers || [])[i];
      if (who) {  // the mover, then the move
        const b = document.createElement('b');
        b.textContent = who + ' ';
        li.appendChild(b);
      }
      li.appendChild(document.createTextNode(entry));
      log.appendChild(li);
    });
    log.scrollTop = log.scrollHeight;
    drawUndo(v);
    $('end').hidden = !v.over;
    if (v.over) {
      $('result').textContent = v.result || '';
      const base = '/t/' + tableId + '/' + token;
      $('replay').href = base + '/replay';
      $('record').href = base + '/record';
    }
    $('question').textContent = v.question || '';
    document.body.dataset.state = v.over ? 'over' : (v.options ? 'mine' : 'waiting');
    document.body.dataset.moves = String(v.history.length);
    drawMoves();
  }

  function drawZones(zones) {
    const box = $('zones');
    box.innerHTML = '';
    for (const z of zones) {
      const div = document.createElement('div');
      div.className = 'zone';
      const head = document.createElement('span');
      head.className = 'zone-name chip';
      head.dataset.word = z.zone;
      head.textContent = z.zone + (z.owner ? ' (' + z.owner + ')' : '') + ':';
      div.appendChild(head);
      if (z.pieces === null) {
        div.appendChild(document.createTextNode(' ' + z.count + ' hidden'));
      } else if (!z.pieces.length) {
        div.appendChild(document.createTextNode(' empty'));
      }
      for (const p of z.pieces || []) {
        const chip = document.createElement('span');
        chip.className = 'chip card';
        chip.dataset.word = p.word;
        chip.textContent = (p.count > 1 ? p.count + ' × ' : '') + p.label;
        div.appendChild(chip);
      }
      box.appendChild(div);
    }
  }

  function drawUndo(v) {
    const humans = v.players.filter((p) => p.agent === 'human').length;
    $('ask-undo').hidden = !v.seat || v.over || !!v.undo;
    $('undo-ask').hidden = !(v.undo);
    if (v.undo) {
      $('undo-text').textContent = v.undo.by + ' asks to undo' +
        (v.undo.waiting.length ? '; waiting for ' + v.undo.waiting.join(', ') : '');
      $('undo-yes').hidden = $('undo-no').hidden = !v.undo.answer;
    }
    $('undo').dataset.humans = String(humans);
  }

  function drawMoves() {
    const list = $('moves');
    list.innerHTML = '';
    const shown = matching(picked);
    $('turn').hidden = !options().length;
    $('clear').hidden = !picked.length;
    $('selection').textContent = picked.length ? 'chosen: ' + picked.join(' ') : '';
    shown.forEach((label, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.label = label;
      b.textContent = (i < 9 ? (i + 1) + '. ' : '') + label;
      b.disabled = pending;
      b.addEventListener('click', () => act(label));
      li.appendChild(b);
      list.appendChild(li);
    });
    markTargets(shown);
  }

  function markTargets(shown) {
    const open = new Set();
    for (const label of shown) {
      const rest = words(label);
      for (const w of picked) rest.splice(rest.indexOf(w), 1);
      for (const w of rest) open.add(w);
    }
    for (const el of document.querySelectorAll('[data-site], .chip[data-word]')) {
      const w = el.dataset.site || el.dataset.word;
      const on = open.has(w);
      el.classList.toggle('target', on);
      el.classList.toggle('picked', picked.includes(w));
      if (on) { el.setAttribute('tabindex', '0'); el.setAttribute('role', 'button'); }
      else el.removeAttribute('tabindex');
    }
  }

  function pick(word) {
    if (pending || !options().length) return;
    let next = picked.concat([word]);
    let found = matching(next);
    if (!found.length) { next = [word]; found = matching(next); }
    if (!found.length) { flash('no move names ' + word); return; }
    if (found.length === 1) { act(found[0]); return; }
    picked = next;
    flash('');
    drawMoves();
  }

  function target(e) {
    const el = e.target.closest('[data-site], .chip[data-word]');
    return el && el.classList.contains('target') ? (el.dataset.site || el.dataset.word) : null;
  }

  document.addEventListener('click', (e) => { const w = target(e); if (w) pick(w); });
  document.addEventListener('keydown', (e) => {
    const w = (e.key === 'Enter' || e.key === ' ') ? target(e) : null;
    if (w) { e.preventDefault(); pick(w); return; }
    if (e.key === 'Escape') { picked = []; drawMoves(); return; }
    if (/^[1-9]$/.test(e.key) && !/INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) {
      const label = matching(picked)[+e.key - 1];
      if (label) act(label);
    }
  });
  $('clear').addEventListener('click', () => { picked = []; drawMoves(); });
  $('ask-undo').addEventListener('click', () => send({type: 'undo'}));
  $('undo-yes').addEventListener('click', () => send({type: 'undo_answer', agree: true}));
  $('undo-no').addEventListener('click', () => send({type: 'undo_answer', agree: false}));
  setInterval(() => { if (!gone) send.call(null, {type: 'ping'}); }, 25000);
  connect();
})();

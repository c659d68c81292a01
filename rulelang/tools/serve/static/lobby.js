// The lobby: show only as many seats as the chosen number of players.
(function () {
  'use strict';
  for (const form of document.querySelectorAll('form.game')) {
    const players = form.querySelector('select[name=players]');
    const update = () => {
      for (const seat of form.querySelectorAll('.seat')) {
        const off = +seat.dataset.seat >= +players.value;
        seat.hidden = off;
        seat.querySelector('select').disabled = off;
      }
    };
    players.addEventListener('change', update);
    update();
  }
})();

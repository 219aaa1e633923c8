// printgen serve, standings page: fetch the game's standings every few seconds and redraw the table (each round
// links to its sheet). No framework.
"use strict";
(function () {
  const table = document.getElementById("table");
  const body = table.querySelector("tbody");
  const address = "/api/games/" + encodeURIComponent(table.dataset.game) + "/standings";

  function cell(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  async function refresh() {
    try {
      const response = await fetch(address, { cache: "no-store" });
      if (!response.ok) return;
      const answer = await response.json();
      document.getElementById("empty").hidden = answer.players.length > 0;
      const others = document.getElementById("others");  // "no game is called ... so far": it is now
      if (others && answer.players.length > 0) others.hidden = true;
      body.textContent = "";
      for (const s of answer.players) {
        const row = document.createElement("tr");
        if (!s.legal) row.className = "unranked";
        row.appendChild(cell(s.rank === null ? "–" : String(s.rank)));
        row.appendChild(cell(s.player));
        const rounds = cell("", "rounds");
        for (const r of s.rounds) {
          const link = document.createElement("a");
          link.className = "round" + (r.checked ? " checked" : "") + (r.legal ? "" : " bad") +
            (r.uncertain ? " doubt" : "");
          link.href = "/?sheet=" + encodeURIComponent(r.sheet);
          link.title = "Round " + r.round + ", " + r.file + ": " +
            (r.uncertain ? r.uncertain + (r.uncertain === 1 ? " field" : " fields") + " to check, " : "") +
            (r.checked ? "confirmed" : "not confirmed yet");
          link.textContent = r.total === null ? "?" : String(r.total);
          if (r.uncertain) {
            const small = document.createElement("small");
            small.textContent = " " + r.uncertain + " to check";
            link.appendChild(small);
          }
          rounds.appendChild(link);
        }
        row.appendChild(rounds);
        row.appendChild(cell(String(s.total), "num total"));
        body.appendChild(row);
      }
    } catch (error) {
      /* the server is away for a moment: try again at the next tick */
    }
  }

  setInterval(refresh, 3000);
})();

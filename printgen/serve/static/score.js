// printgen serve, scoring page: upload a photo (or open a kept sheet: /?sheet=ID), draw what was read over it,
// zoom in to correct fields, confirm. No framework.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const form = document.getElementById("upload");
  const status = document.getElementById("status");
  const game = document.getElementById("game");
  const player = document.getElementById("player");
  const sheets = document.getElementById("sheets");
  const template = document.getElementById("sheet-template");
  const photo = document.getElementById("photo");
  const TARGET = 44;  // CSS px: the least a field is drawn at where it is tapped to be corrected

  const query = new URLSearchParams(location.search);
  game.value = query.get("game") || localStorage.getItem("printgen-game") || "";
  player.value = localStorage.getItem("printgen-player") || "";
  game.addEventListener("change", loadPlayers);
  loadPlayers();
  if (query.getAll("sheet").length) openSheets(query.getAll("sheet"));

  // Kept sheets, opened from a round in the standings or the page's own address after an upload (a reload, Back,
  // another phone).
  async function openSheets(ids) {
    for (const id of ids) {
      try {
        const sheet = await json(await fetch("/api/sheets/" + encodeURIComponent(id), { cache: "no-store" }));
        game.value = sheet.game;
        show(sheet);
        say(ids.length > 1 ? "The sheets of this photo: correct them, confirm them or remove them." :
          sheet.player + "'s sheet in " + sheet.game + ": correct it, confirm it or remove it.");
      } catch (error) {
        say(error.status === 404 ? "That sheet is no longer kept: it was removed (from this phone or another)." :
          error.message, true);
      }
    }
    loadPlayers();
  }

  function say(text, error) {
    status.textContent = text;
    status.className = error ? "error" : "";
  }

  async function json(response) {
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const error = new Error((body && body.error) || ("the server answered " + response.status));
      error.status = response.status;
      throw error;
    }
    return body;
  }

  async function loadPlayers() {
    const list = document.getElementById("players");
    list.textContent = "";
    if (!game.value.trim()) return;
    const link = document.getElementById("standings");
    link.href = "/games/" + encodeURIComponent(game.value.trim());
    document.getElementById("standings-link").hidden = false;
    const response = await fetch("/api/games/" + encodeURIComponent(game.value.trim()) + "/players");
    if (!response.ok) return;
    for (const name of (await response.json()).players) {
      const option = document.createElement("option");
      option.value = name;
      list.appendChild(option);
    }
  }

  let sending = false;  // one upload at a time: a second press (or Enter) while one is read is not another
  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (sending) return;
    sending = true;
    const button = document.getElementById("send");
    button.disabled = true;
    say("Reading the sheet…");
    localStorage.setItem("printgen-game", game.value.trim());
    localStorage.setItem("printgen-player", player.value.trim());
    try {
      const answer = await json(await fetch("/api/score", { method: "POST", body: new FormData(form) }));
      sheets.textContent = "";
      for (const sheet of answer.sheets) {
        show(await json(await fetch("/api/sheets/" + sheet.id)));
      }
      photo.value = "";  // sent: the same file is not read again by a second press
      remember();
      const n = answer.sheets.length;
      say(n + (n === 1 ? " sheet read." : " sheets read, all under " + player.value.trim() +
          ": tap “Another player's sheet?” on one that is not theirs.") +
          (answer.blank ? " Not counted (nothing crossed): " + answer.blank.join("; ") + "." : "") +
          (answer.unreadable ? " Not read: " + answer.unreadable.join("; ") : ""));
      loadPlayers();
      loadGames();
    } catch (error) {
      say(error.message, true);
    } finally {
      button.disabled = false;
      sending = false;
    }
  });

  // The games list and the game names offered, again: an upload may have started a game.
  async function loadGames() {
    const response = await fetch("/api/games", { cache: "no-store" });
    if (!response.ok) return;
    const games = (await response.json()).games;
    const offered = document.getElementById("games");
    const list = document.getElementById("games-list");
    offered.textContent = "";
    list.textContent = "";
    for (const entry of games) {
      const option = document.createElement("option");
      option.value = entry.game;
      offered.appendChild(option);
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "/games/" + encodeURIComponent(entry.game);
      link.textContent = entry.game;
      item.appendChild(link);
      list.appendChild(item);
    }
    document.getElementById("games-section").hidden = games.length === 0;
  }

  function show(sheet, article) {
    const fresh = !article;
    if (fresh) {
      article = template.content.firstElementChild.cloneNode(true);
      sheets.appendChild(article);
      article.querySelector("img").src = sheet.picture;
      article.querySelector(".confirm").addEventListener("click", () => confirmSheet(article));
      article.querySelector(".remove").addEventListener("click", () => removeSheet(article));
      article.querySelector(".move").addEventListener("click", () => moveSheet(article));
      article.querySelector(".zoom-out").addEventListener("click", () => zoomOut(article));
      article.querySelector("svg").addEventListener("click", (event) => tapped(article, event));
    }
    article.sheet = sheet;
    article.dataset.id = sheet.id;
    article.querySelector(".total").textContent = "Total " + sheet.total;
    article.querySelector(".who").textContent = sheet.player + " · " + sheet.game;
    const legal = article.querySelector(".legal");
    legal.textContent = sheet.legal ? "legal" : "not legal";
    legal.className = "legal" + (sheet.legal ? "" : " bad");
    const rows = article.querySelector(".rows");
    rows.textContent = "";
    sheet.rows.forEach(function (row, i) {
      const item = document.createElement("li");
      item.textContent = "Row " + (i + 1) + ": " + sheet.points[i];
      rows.appendChild(item);
    });
    const penalty = document.createElement("li");
    const lost = sheet.points[sheet.rows.length];  // (the points: each row's, then the penalties')
    penalty.textContent = "Penalties: " + sheet.penalties + (lost ? " (−" + lost + ")" : "");
    rows.appendChild(penalty);
    const problems = article.querySelector(".problems");
    problems.textContent = "";
    for (const text of sheet.problems) {
      const item = document.createElement("li");
      item.textContent = text;
      problems.appendChild(item);
    }
    const doubtful = sheet.fields.filter((f) => f.uncertain).length;
    if (doubtful) {
      const item = document.createElement("li");
      item.className = "doubt";
      item.textContent = doubtful + (doubtful === 1 ? " field needs" : " fields need") + " a look (orange)";
      problems.appendChild(item);
    }
    const confirm = article.querySelector(".confirm");
    confirm.textContent = sheet.confirmed ? "Confirmed ✓" :
      (sheet.reopened || article.dataset.reopened ? "Confirm again" : "Confirm " + sheet.player + "'s sheet") +
      (doubtful && !sheet.confirmed ? " (" + doubtful + " orange as shown)" : "");
    confirm.classList.toggle("done", sheet.confirmed);
    if (sheet.reopened) article.dataset.reopened = "1";
    if (sheet.confirmed) delete article.dataset.reopened;
    draw(article.querySelector("svg"), sheet, article);
    article.querySelector(".how").textContent = zoomedOut(article) ?
      "Tap the sheet to zoom in, then tap a field to cross or uncross it." : "Tap a field to cross or uncross it.";
  }

  // On a phone the whole sheet's fields are a finger's fraction: a tap zooms in there first, so each field is
  // at least TARGET px wide where it is tapped to be corrected.
  function zoomWidth(sheet) {
    const smallest = Math.min(...sheet.fields.map((f) => Math.min(f.box[2], f.box[3])));
    return sheet.frame[2] * TARGET / smallest;
  }

  function zoomedOut(article) {
    return !article.classList.contains("zoomed") &&
      article.querySelector(".picture").clientWidth < zoomWidth(article.sheet) - 0.5;
  }

  function tapped(article, event) {
    if (zoomedOut(article)) { zoomAt(article, event); return; }
    const shape = event.target.closest(".field");
    if (!shape) return;
    const field = article.sheet.fields.find((f) => f.name === shape.dataset.name);
    if (field) setField(article, field);
  }

  function zoomAt(article, event) {
    const view = article.querySelector(".viewport");
    const picture = article.querySelector(".picture");
    const before = picture.getBoundingClientRect();
    const fx = (event.clientX - before.left) / before.width;
    const fy = (event.clientY - before.top) / before.height;
    article.classList.add("zoomed");
    picture.style.width = zoomWidth(article.sheet) + "px";
    const after = picture.getBoundingClientRect();
    view.scrollLeft = fx * after.width - view.clientWidth / 2;
    view.scrollTop = fy * after.height - view.clientHeight / 2;
    const whole = article.querySelector(".zoom-out");
    whole.hidden = false;
    article.querySelector(".how").textContent = "Zoomed in: tap a field to cross or uncross it; drag to move.";
    view.scrollIntoView({ block: "nearest" });
    whole.scrollIntoView({ block: "nearest" });  // the way back in sight too
  }

  function zoomOut(article) {
    article.classList.remove("zoomed");
    article.querySelector(".picture").style.width = "";
    article.querySelector(".zoom-out").hidden = true;
    show(article.sheet, article);
  }

  function draw(svg, sheet, article) {
    svg.setAttribute("viewBox", sheet.frame.join(" "));
    svg.textContent = "";
    for (const field of sheet.fields) {
      const [x, y, w, h] = field.box;
      const shape = document.createElementNS(SVG, field.round ? "ellipse" : "rect");
      if (field.round) {
        shape.setAttribute("cx", x + w / 2); shape.setAttribute("cy", y + h / 2);
        shape.setAttribute("rx", w / 2); shape.setAttribute("ry", h / 2);
      } else {
        shape.setAttribute("x", x); shape.setAttribute("y", y);
        shape.setAttribute("width", w); shape.setAttribute("height", h); shape.setAttribute("rx", 0.8);
      }
      const classes = ["field"];
      if (field.crossed) classes.push("crossed");
      if (field.uncertain) classes.push("uncertain");
      if (field.corrected) classes.push("corrected");
      shape.setAttribute("class", classes.join(" "));
      shape.setAttribute("tabindex", "0");
      shape.setAttribute("role", "button");
      shape.setAttribute("aria-pressed", field.crossed ? "true" : "false");
      shape.setAttribute("aria-label", field.name + (field.uncertain ? " (uncertain)" : ""));
      shape.dataset.name = field.name;
      const title = document.createElementNS(SVG, "title");
      title.textContent = field.name + (field.crossed ? ": crossed" : ": empty") + (field.uncertain ? " (uncertain)" : "");
      shape.appendChild(title);
      shape.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); setField(article, field); }
      });
      svg.appendChild(shape);
      if (field.crossed) {
        const m = Math.min(w, h) * 0.22;
        for (const [a, b, c, d] of [[x + m, y + m, x + w - m, y + h - m], [x + w - m, y + m, x + m, y + h - m]]) {
          const line = document.createElementNS(SVG, "line");
          line.setAttribute("x1", a); line.setAttribute("y1", b); line.setAttribute("x2", c); line.setAttribute("y2", d);
          line.setAttribute("class", "mark" + (field.corrected ? " corrected" : ""));
          svg.appendChild(line);
        }
      }
    }
  }

  async function setField(article, field) {
    const body = Object.assign({}, field.set, { crossed: !field.crossed });
    try {
      const sheet = await json(await fetch("/api/sheets/" + article.dataset.id + "/fields", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
      show(sheet, article);
      say(field.name + (body.crossed ? " crossed." : " left empty.") + " Total now " + sheet.total + "." +
          (sheet.reopened ? " The sheet was confirmed: confirm it again when it is right." : ""));
    } catch (error) {
      gone(article, error);
    }
  }

  // The page's address opens the sheets shown again (a reload, Back from the standings).
  function remember() {
    const ids = Array.from(sheets.children, (article) => "sheet=" + encodeURIComponent(article.dataset.id));
    history.replaceState(null, "", ids.length ? "/?" + ids.join("&") : "/");
  }

  // A card action on a sheet another phone removed: the card goes, with words saying why.
  function gone(article, error) {
    if (error.status !== 404) { say(error.message, true); return; }
    article.remove();
    remember();
    say("That sheet is no longer kept: it was removed (from this phone or another).", true);
  }

  async function moveSheet(article) {
    try {  // (a sheet another phone removed is said to be gone before anyone types a name)
      article.sheet = await json(await fetch("/api/sheets/" + article.dataset.id, { cache: "no-store" }));
    } catch (error) {
      gone(article, error);
      return;
    }
    const name = window.prompt("Whose sheet is it? (a player of " + article.sheet.game + ")", "");
    if (name === null || !name.trim()) return;
    const before = article.sheet.player;
    try {
      const sheet = await json(await fetch("/api/sheets/" + article.dataset.id + "/player", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ player: name.trim() }) }));
      show(sheet, article);
      say(sheet.player === before ? "It is " + sheet.player + "'s sheet already." :
        "It is " + sheet.player + "'s sheet now, in " + sheet.player + "'s rounds.");
      loadPlayers();
    } catch (error) {
      gone(article, error);
    }
  }

  async function removeSheet(article) {
    if (!window.confirm("Remove this sheet from the game?")) return;
    try {
      await json(await fetch("/api/sheets/" + article.dataset.id + "/remove", { method: "POST" }));
      article.remove();
      remember();
      say("Removed. It no longer counts in the standings.");
    } catch (error) {
      gone(article, error);
    }
  }

  async function confirmSheet(article) {
    try {
      await json(await fetch("/api/sheets/" + article.dataset.id + "/confirm", { method: "POST" }));
      show(await json(await fetch("/api/sheets/" + article.dataset.id)), article);
      say("Confirmed. Photograph the next sheet, or open the standings.");
    } catch (error) {
      gone(article, error);
    }
  }
})();

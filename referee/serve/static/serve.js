// referee serve: live updates (server-sent events), forms sent without leaving the
// page, and completion of the line being typed. The page works without this script,
// save for the live updates.
"use strict";

(function () {
  const live = () => document.getElementById("live");
  const PARTS = ["live", "live-more"];

  function version(element) {
    return element ? Number(element.dataset.version || -1) : -1;
  }

  // The parts of the page that show the game, from a page or an event's HTML: each is
  // replaced when it is newer than what the page shows (from the same run of the server:
  // a server started again counts its changes from 0). The same version is left as it
  // is: cards being picked for a play of several stay picked.
  function setLive(text) {
    const doc = new DOMParser().parseFromString(text, "text/html");
    for (const id of PARTS) {
      const current = document.getElementById(id);
      const element = doc.getElementById(id);
      if (!current || !element) continue;
      if (element.dataset.start !== current.dataset.start || version(element) > version(current)) current.replaceWith(element);
    }
    words();
    groups();
  }

  function fromHTML(text, id) {
    const doc = new DOMParser().parseFromString(text, "text/html");
    return doc.getElementById(id);
  }

  // --- Live updates ------------------------------------------------------------------
  function listen() {
    const offline = document.getElementById("offline");
    const source = new EventSource("/events");
    source.addEventListener("live", (event) => setLive(event.data));
    source.addEventListener("open", () => { if (offline) offline.hidden = true; });
    source.addEventListener("error", () => { if (offline) offline.hidden = false; });
  }

  // --- Forms ---------------------------------------------------------------------------
  // A move carries the table it was chosen on (a digest of the record): the form's own (a
  // fault panel's: the table it was ruled on), else the table the page shows now. The
  // server refuses a move chosen on another table, and writes a double tap once. While a
  // form is on its way, its buttons wait.
  async function send(form, submitter) {
    const data = new FormData(form, submitter);
    const shown = live();
    if (form.action.endsWith("/line") && !data.has("table") && shown && shown.dataset.table) {
      data.set("table", shown.dataset.table);
    }
    const buttons = [...form.querySelectorAll("button")].filter((b) => !b.disabled);
    for (const b of buttons) b.disabled = true;
    let answer;
    try {
      answer = await fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(data),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        credentials: "same-origin",
      });
    } catch (error) {
      document.getElementById("offline").hidden = false;
      return;
    } finally {
      for (const b of buttons) b.disabled = false;
    }
    const text = await answer.text();
    if (answer.redirected || !answer.headers.get("content-type").startsWith("text/html")) {
      if (answer.redirected) { window.location.href = answer.url; return; }
      const notice = document.getElementById("notice");
      notice.replaceChildren();
      const p = document.createElement("p");
      p.className = "refused";
      p.textContent = text;
      notice.append(p);
      return;
    }
    const notice = fromHTML(text, "notice");
    if (notice) document.getElementById("notice").replaceWith(notice);
    setLive(text);
    if (notice && notice.querySelector(".ok") && (form.id === "entry" || form.classList.contains("choices"))) {
      document.getElementById("line").value = "";
    }
    if (notice && notice.firstElementChild) notice.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.method !== "post" || !document.getElementById("notice")) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  document.addEventListener("change", (event) => {
    if (event.target.dataset && event.target.dataset.autosubmit) event.target.form.submit();
  });

  // --- Several cards of one value, picked one by one ---------------------------------
  // A form.group holds a player's groups (data-groups, as `referee state --json` gives
  // them): the buttons offer only the cards and suits that lead to a play a group allows,
  // and "write it" sends the cards and the suit, which the server checks again with
  // Group.allows before it rules the line.
  function groupsOf(form) {
    try { return JSON.parse(form.dataset.groups || "[]"); } catch (error) { return []; }
  }

  function picked(form) {
    return form.elements.cards.value.split(" ").filter(Boolean);
  }

  // The suits a play of these cards may name ("" for none), none at all when the group
  // does not allow it: Group._suits in referee/games/base.py.
  function suitsFor(group, cards) {
    if (cards.length > group.hand || cards.filter((c) => !group.known.includes(c)).length > group.unseen) return [];
    const out = cards.length === group.hand;
    if (out && group.not_last.includes(cards[cards.length - 1])) return [];
    return (out ? group.out_suits : group.suits).map((suit) => suit || "");
  }

  // Whether these cards, laid first, begin a play the group allows.
  function leads(group, cards) {
    if (suitsFor(group, cards).length) return true;
    return group.more.some((card) => !cards.includes(card) && cards.length < group.hand && leads(group, [...cards, card]));
  }

  function showGroup(form) {
    const cards = picked(form);
    const group = cards.length ? groupsOf(form).find((g) => g.first === cards[0]) : null;
    const fits = (card) => group
      ? group.more.includes(card) && !cards.includes(card) && leads(group, [...cards, card])
      : groupsOf(form).some((g) => g.first === card && leads(g, [card]));
    for (const button of form.querySelectorAll("button.pick")) {
      const card = button.dataset.card;
      button.setAttribute("aria-pressed", String(cards.includes(card)));
      button.disabled = !fits(card);
    }
    const shown = form.querySelector(".play .cards");
    shown.replaceChildren(...cards.map((card) => {
      const face = form.querySelector(`button.pick[data-card="${card}"] svg`);
      return face ? face.cloneNode(true) : document.createTextNode(card + " ");
    }));
    const allowed = group ? suitsFor(group, cards) : [];
    const naming = allowed.some((suit) => suit !== "");
    const suits = form.querySelector(".suits");
    if (suits) suits.hidden = !naming;
    if (!naming || !allowed.includes(form.elements.suit.value)) { form.elements.suit.value = ""; delete form.dataset.named; }
    const suit = form.elements.suit.value;
    let said = "";
    for (const button of form.querySelectorAll("button.suit")) {
      const on = form.dataset.named === "1" && button.dataset.suit === suit;
      button.setAttribute("aria-pressed", String(on));
      button.disabled = !allowed.includes(button.dataset.suit);
      if (on) said = button.textContent;
    }
    form.querySelector(".play .named").textContent = said ? "→ " + said : "";
    form.querySelector("button.write").disabled = !(allowed.includes(suit) && (!naming || form.dataset.named === "1"));
  }

  function groups() {
    for (const form of document.querySelectorAll("form.group")) { form.hidden = false; showGroup(form); }
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("form.group button[type=button]");
    if (!button) return;
    const form = button.form;
    if (button.classList.contains("pick")) {
      form.elements.cards.value = [...picked(form), button.dataset.card].join(" ");
    } else if (button.classList.contains("suit")) {
      form.elements.suit.value = button.dataset.suit;
      form.dataset.named = "1";
    } else if (button.classList.contains("again")) {
      form.elements.cards.value = "";
      form.elements.suit.value = "";
      delete form.dataset.named;
    }
    showGroup(form);
  });

  // --- Completion of the line being typed ---------------------------------------------
  function vocabulary() {
    const element = live();
    try {
      return JSON.parse(element.dataset.words || "{}");
    } catch (error) {
      return {};
    }
  }

  function next(v, previous) {
    const players = v.players || [], verbs = v.verbs || [], cards = v.cards || [];
    if (previous.length === 0) return [...players, ...verbs];
    const last = previous[previous.length - 1];
    const targets = v.targets || ["to", "on", "from", "with"];
    const forWord = (v.for || ["for"])[0];
    if (targets.includes(last)) return players;
    if (last === forWord) return v.suits || [];
    if (previous.length === 1 && players.includes(last)) return verbs;
    return [...cards, ...targets.slice(0, 2), forWord];
  }

  function words() {
    const input = document.getElementById("line");
    const list = document.getElementById("words");
    if (!input || !list) return;
    const v = vocabulary();
    if (v.hint && v.hint[0]) input.placeholder = v.hint[0];
    const text = input.value;
    const typed = text.split(/\s+/).filter(Boolean);
    const ends = text === "" || /\s$/.test(text);
    const previous = ends ? typed : typed.slice(0, -1);
    const word = ends ? "" : typed[typed.length - 1];
    const head = previous.length ? previous.join(" ") + " " : "";
    const seen = new Set();
    const options = [];
    for (const line of v.legal || []) {
      if (line.toLowerCase().startsWith(text.toLowerCase()) && !seen.has(line)) { seen.add(line); options.push(line); }
    }
    for (const candidate of next(v, previous)) {
      const line = head + candidate;
      if (candidate.toLowerCase().startsWith(word.toLowerCase()) && !seen.has(line)) { seen.add(line); options.push(line); }
    }
    list.replaceChildren(...options.slice(0, 60).map((value) => {
      const option = document.createElement("option");
      option.value = value;
      return option;
    }));
  }

  document.addEventListener("input", (event) => { if (event.target.id === "line") words(); });

  document.addEventListener("DOMContentLoaded", () => {
    if (live()) { listen(); words(); groups(); }
  });
})();

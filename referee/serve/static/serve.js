// referee serve: live updates (server-sent events, each the parts of the page that
// changed), forms sent without leaving the page, this phone's seat, cards chosen in two
// taps, and completion of the line being typed. The page works without this script,
// save for the live updates (every card is then one tap, every row shown).
"use strict";

(function () {
  document.documentElement.classList.add("js");
  const live = () => document.getElementById("live");
  const SEAT = "referee-seat";

  function version(element) {
    return element ? Number(element.dataset.version || -1) : -1;
  }

  // --- The parts of the page ------------------------------------------------------------
  // The page is made of parts (elements with an id and a digest, data-h): the bar, the
  // piles, the legal moves, the rest; a card face's symbol is a part too. A live update
  // brings the digest of every part and those that changed; a page that finds one of its
  // parts unlike the digest (an update missed) asks for them all (/parts).
  function place(element) {
    const current = document.getElementById(element.id);
    if (current) current.replaceWith(element);
    else if (element.dataset.in && document.getElementById(element.dataset.in)) document.getElementById(element.dataset.in).append(element);
  }

  function newer(start, v) {
    const shown = live();
    return !shown || start !== shown.dataset.start || v > version(shown);
  }

  function partsOf(doc) {
    return [...doc.querySelectorAll("#live, [id^=part-]")];
  }

  // A page's HTML (the answer to a move): its parts replace the page's when newer. The
  // same version is left as it is: cards being picked stay picked.
  function setLive(text) {
    const doc = new DOMParser().parseFromString(text, "text/html");
    const shown = doc.getElementById("live");
    if (!shown || !newer(shown.dataset.start, version(shown))) return;
    for (const element of partsOf(doc)) place(document.importNode(element, true));
    refresh();
  }

  async function resync() {
    const answer = await fetch("/parts", { credentials: "same-origin" });
    if (answer.status === 205) { window.location.reload(); return; }
    if (!answer.ok) return;
    const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
    for (const element of partsOf(doc)) place(document.importNode(element, true));
    refresh();
  }

  // An update: a line of JSON (the version, every part's digest), then the parts that
  // changed, as HTML.
  function update(data) {
    const cut = data.indexOf("\n");
    let sent;
    try { sent = JSON.parse(cut < 0 ? data : data.slice(0, cut)); } catch (error) { return; }
    const html = cut < 0 ? "" : data.slice(cut + 1);
    if (html && newer(sent.start, sent.version)) {
      const doc = new DOMParser().parseFromString(html, "text/html");
      for (const element of partsOf(doc)) place(document.importNode(element, true));
      refresh();
    }
    const shown = live();
    if (shown && shown.dataset.start === sent.start && version(shown) > sent.version) return;
    for (const [name, digest] of Object.entries(sent.h)) {
      const id = name === "live" ? "live" : "part-" + name;
      const element = document.getElementById(id);
      if (!element || element.dataset.h !== digest) { resync(); return; }
    }
  }

  function fromHTML(text, id) {
    const doc = new DOMParser().parseFromString(text, "text/html");
    return doc.getElementById(id);
  }

  // A live update sends the cards of a card seen only as played by suit (data-rows:
  // "suit:letter:values" a suit, "|" between; "#n": the same as the n-th deck's rows that
  // are written out) where every line reads alike (data-pattern, "{}" for the card):
  // their buttons, as the page itself has them, are made here, with the help above them.
  const SIGNS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  function expand() {
    const written = [...document.querySelectorAll(".deck[data-rows]")].map((d) => d.dataset.rows).filter((r) => !r.startsWith("#"));
    for (const deck of document.querySelectorAll(".deck[data-rows]")) {
      const section = deck.closest("[data-suits]");
      let pick = deck.querySelector(".suits-pick");
      if (pick && pick.querySelector("button")) continue;
      let names = {};
      try { names = JSON.parse(section.dataset.suits); } catch (error) { names = {}; }
      if (!pick) {
        const help = document.createElement("p");
        help.className = "help";
        help.textContent = deck.querySelector(".unknown") ? section.dataset.seen : section.dataset.pick;
        pick = document.createElement("div");
        pick.className = "buttons suits-pick";
        const named = deck.querySelector(".named");
        if (named) named.before(help, pick); else deck.append(help, pick);
      }
      const rows = deck.dataset.rows.startsWith("#") ? written[Number(deck.dataset.rows.slice(1))] || "" : deck.dataset.rows;
      for (const row of rows.split("|")) {
        const [suit, letter, values] = row.split(":");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "suit-pick suit-" + suit;
        button.dataset.suit = suit;
        button.setAttribute("aria-pressed", "false");
        button.setAttribute("aria-label", names[suit] || suit);
        button.textContent = SIGNS[suit] || names[suit] || suit; // the trumps and the Excuse: their name
        pick.append(button);
        const div = document.createElement("div");
        div.className = "buttons values later suit-" + suit;
        div.dataset.suit = suit;
        div.append(...values.split(" ").map((value) => {
          const b = document.createElement("button");
          if (value.startsWith("!")) { // an ace: its suits' buttons are in the page
            value = value.slice(1);
            b.type = "button";
            b.className = "named-value";
            b.dataset.face = value + letter;
          } else {
            b.name = "line";
            b.value = deck.dataset.pattern.replace("{}", value + letter);
          }
          b.textContent = value;
          return b;
        }));
        const named = deck.querySelector(".named");
        if (named) named.before(div); else deck.append(div);
      }
    }
  }

  // A card's face, as the page has it: the deck's faces are in one document the browser
  // keeps (data-sprite), a card outside the deck in the page itself.
  const NS = "http://www.w3.org/2000/svg";

  function face(name, width, label) {
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "card");
    svg.setAttribute("role", "img");
    if (label) svg.setAttribute("aria-label", label); else svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(Math.round(width * 84 / 60)));
    svg.setAttribute("viewBox", "0 0 60 84");
    const use = document.createElementNS(NS, "use");
    const section = document.querySelector("[data-sprite]");
    use.setAttribute("href", (section ? section.dataset.sprite : "") + "#card-" + name);
    svg.append(use);
    return svg;
  }

  // Faces alike but for their card (data-cards: "suit:cards" a suit, "|" between, each
  // card as written then "=" its face's name where they differ, "!" first when its play
  // names a suit, whose suits' buttons the page has), and cards laid together
  // (data-picks: "sent=face=name" a card, "|" between): their buttons made here.
  function expandFaces() {
    for (const box of document.querySelectorAll(".faces-by-suit[data-cards]")) {
      if (box.querySelector("button.face")) continue;
      const confirm = (box.closest("[data-confirm]") || { dataset: {} }).dataset.confirm || "{}";
      for (const row of box.dataset.cards.split("|")) {
        const cut = row.indexOf(":");
        const suit = row.slice(0, cut);
        const div = document.createElement("div");
        div.className = "buttons faces";
        div.dataset.suit = suit;
        for (const token of row.slice(cut + 1).split(" ").filter(Boolean)) {
          const named = token.startsWith("!");
          const [text, name] = token.replace(/^!/, "").split("=");
          const label = box.dataset.label.replace("\u2026", text);
          const b = document.createElement("button");
          b.className = "face";
          b.title = named ? label : box.dataset.pattern.replace("{}", text);
          b.setAttribute("aria-label", label);
          b.setAttribute("aria-pressed", "false");
          if (named) {
            b.type = "button";
            b.classList.add("named-pick");
            const suits = [...box.querySelectorAll(".named")].find((d) => d.dataset.face === text);
            b.dataset.card = suits ? suits.dataset.for : "";
          } else {
            b.name = "line";
            b.value = box.dataset.pattern.replace("{}", text);
            b.dataset.confirm = confirm.replace("{}", b.value);
          }
          b.append(face(name || text, 40, ""));
          div.append(b);
        }
        const before = box.querySelector(`.named[data-suit="${suit}"]`);
        if (before) before.before(div); else box.append(div);
      }
    }
    for (const box of document.querySelectorAll("[data-picks]")) {
      if (box.querySelector("button")) continue;
      for (const card of box.dataset.picks.split("|").filter(Boolean)) {
        const [sent, name, label] = card.split("=");
        const b = document.createElement("button");
        b.type = "button";
        b.className = "pick";
        b.dataset.card = sent;
        b.setAttribute("aria-pressed", "false");
        b.append(face(name, 36, label));
        box.append(b);
      }
    }
  }

  function refresh() {
    expand();
    expandFaces();
    words();
    groups();
    mine();
  }

  // --- Live updates ------------------------------------------------------------------
  function listen() {
    const offline = document.getElementById("offline");
    const source = new EventSource("/events");
    source.addEventListener("parts", (event) => {
      if (!live()) { window.location.reload(); return; } // the new-game form: the game has started
      update(event.data);
    });
    source.addEventListener("new", () => { if (live()) window.location.reload(); });
    source.addEventListener("open", () => { if (offline) offline.hidden = true; });
    source.addEventListener("error", () => { if (offline) offline.hidden = false; });
  }

  // --- This phone's seat -------------------------------------------------------------
  // Kept in the browser (not a security measure: the table is trusted). Its player's
  // moves come first; the bar says "your turn" on this phone.
  function seat() {
    try { return window.localStorage.getItem(SEAT) || ""; } catch (error) { return ""; }
  }

  function players() {
    const element = document.getElementById("part-words");
    try { return JSON.parse((element && element.dataset.players) || "[]"); } catch (error) { return []; }
  }

  function mine() {
    const select = document.getElementById("me");
    if (!select) return;
    const me = seat();
    const names = players();
    const have = [...select.options].slice(1).map((o) => o.value);
    if (have.join("\n") !== names.join("\n")) {
      while (select.options.length > 1) select.remove(1);
      for (const name of names) select.add(new Option(name, name));
    }
    select.value = names.includes(me) ? me : "";
    const chosen = select.value;
    document.body.dataset.me = chosen;
    const turn = document.querySelector("#part-bar .turn");
    const bar = document.getElementById("part-bar");
    if (turn && bar) {
      const yours = chosen !== "" && turn.dataset.turn === chosen;
      if (!turn.dataset.said) turn.dataset.said = turn.textContent;
      turn.textContent = yours ? turn.dataset.yours : turn.dataset.said;
      bar.classList.toggle("yours", yours);
    }
    for (const chip of document.querySelectorAll(".seats-row .chip, .anyone button")) {
      chip.classList.toggle("me", chosen !== "" && chip.dataset.player === chosen);
    }
    const section = document.querySelector("#part-legal .legal");
    if (!section) return;
    const own = chosen ? [...section.querySelectorAll(":scope > .player")].find((p) => p.dataset.player === chosen) : null;
    for (const player of section.querySelectorAll(":scope > .player")) {
      player.classList.toggle("mine", player === own);
      if (!("opened" in player.dataset)) player.classList.toggle("folded", own !== null && player !== own);
    }
    if (own) {
      const heading = section.querySelector("h2");
      heading.after(own);
      const rest = [...section.querySelectorAll(":scope > .player")].filter((p) => p !== own);
      if (rest.length && !section.querySelector(".others")) {
        const others = document.createElement("p");
        others.className = "others";
        others.textContent = section.dataset.others || "";
        if (others.textContent) rest[0].before(others);
      }
    }
  }

  // The others' moves, folded on a phone that says whose it is: a tap on a name opens them.
  document.addEventListener("click", (event) => {
    const heading = event.target.closest && event.target.closest("#part-legal .player h3");
    if (!heading) return;
    const player = heading.closest(".player");
    if (!player.classList.contains("folded") && !("opened" in player.dataset)) return;
    player.dataset.opened = "";
    player.classList.toggle("folded");
  });

  document.addEventListener("change", (event) => {
    if (event.target.id === "me") {
      try { window.localStorage.setItem(SEAT, event.target.value); } catch (error) { /* private mode: this page only */ }
      mine();
    }
  });

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
    if (notice) document.getElementById("notice").replaceWith(document.importNode(notice, true));
    setLive(text);
    unarm();
    if (notice && notice.querySelector(".ok") && (form.id === "entry" || form.classList.contains("choices"))) {
      document.getElementById("line").value = "";
    }
    const shownNotice = document.getElementById("notice");
    if (shownNotice && shownNotice.querySelector(".fault, .refused, .confirm, .changed")) {
      shownNotice.scrollIntoView({ block: "nearest" });
    }
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

  // --- A card in two taps: choose it, then confirm -----------------------------------
  // A card's face is chosen by a first tap: the form then shows what it writes on a
  // button of its own, and a second tap (on it, or on the face again) writes it. A card
  // whose play names a suit (an ace) shows the suits at the first tap instead. Where the
  // card is seen only as it is played, a suit's tap shows its values: a value's tap writes.
  function unarm(except) {
    for (const form of document.querySelectorAll("form.moves")) {
      if (form === except) continue;
      for (const b of form.querySelectorAll("button.face[aria-pressed=true], button.suit-pick[aria-pressed=true]")) {
        b.setAttribute("aria-pressed", "false");
      }
      for (const open of form.querySelectorAll(".later.open")) open.classList.remove("open");
      const go = form.querySelector(".go");
      if (go) { go.hidden = true; go.replaceChildren(); }
    }
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("form.moves button");
    if (!button) return;
    const form = button.form;
    if (button.classList.contains("face")) {
      const pressed = button.getAttribute("aria-pressed") === "true";
      if (pressed && !button.classList.contains("named-pick")) return; // the second tap writes
      event.preventDefault();
      unarm();
      button.setAttribute("aria-pressed", "true");
      if (button.classList.contains("named-pick")) {
        const suits = [...form.querySelectorAll(".named")].find((d) => d.dataset.for === button.dataset.card);
        if (suits) suits.classList.add("open");
        return;
      }
      const go = form.querySelector(".go");
      const write = document.createElement("button");
      write.name = "line";
      write.value = button.value;
      write.className = "write-this";
      write.textContent = button.dataset.confirm || button.value;
      go.replaceChildren(write);
      go.hidden = false;
      go.scrollIntoView({ block: "nearest" });
    } else if (button.classList.contains("named-value")) { // the value of an ace: its suits next
      event.preventDefault();
      const deck = button.closest(".deck");
      for (const b of deck.querySelectorAll(".named")) b.classList.toggle("open", b.dataset.face === button.dataset.face);
      const suits = deck.querySelector(`.named[data-face="${button.dataset.face}"]`);
      if (suits) suits.scrollIntoView({ block: "nearest" });
    } else if (button.classList.contains("suit-pick")) {
      const was = button.getAttribute("aria-pressed") === "true";
      unarm();
      if (was) return;
      button.setAttribute("aria-pressed", "true");
      const deck = button.closest(".deck");
      for (const row of deck.querySelectorAll(".values")) row.classList.toggle("open", row.dataset.suit === button.dataset.suit);
    }
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
    const element = document.getElementById("part-words");
    let found = {};
    try { found = JSON.parse((element && element.dataset.words) || "{}"); } catch (error) { found = {}; }
    found.legal = [...document.querySelectorAll("#part-legal button[name=line], #part-bar button[name=line]")].map((b) => b.value);
    const shown = live();
    found.hint = [shown ? shown.dataset.hint || "" : ""];
    return found;
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

  document.addEventListener("input", (event) => {
    if (event.target.id === "line") words();
    if (event.target.id === "players") dealers();
  });

  // --- The new-game form: the dealer among the players ---------------------------------
  function dealers() {
    const field = document.getElementById("players");
    const select = document.getElementById("dealer");
    if (!field || !select || select.tagName !== "SELECT") return;
    const names = field.value.replace(/,/g, " ").split(/\s+/).filter(Boolean);
    const chosen = select.value;
    while (select.options.length > 1) select.remove(1);
    for (const name of names) select.add(new Option(name, name));
    select.value = names.includes(chosen) ? chosen : "";
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (live()) { refresh(); }
    if (document.getElementById("notice") || document.querySelector("form.setup, form.choose")) listen();
    dealers();
  });
})();

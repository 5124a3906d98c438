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
  // replaced unless what the page shows is newer (from the same run of the server: a
  // server started again counts its changes from 0).
  function setLive(text) {
    const doc = new DOMParser().parseFromString(text, "text/html");
    for (const id of PARTS) {
      const current = document.getElementById(id);
      const element = doc.getElementById(id);
      if (!current || !element) continue;
      if (element.dataset.start !== current.dataset.start || version(element) >= version(current)) current.replaceWith(element);
    }
    words();
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
  async function send(form, submitter) {
    const data = new FormData(form, submitter);
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
    if (["to", "on", "from", "with"].includes(last)) return players;
    if (last === "for") return v.suits || [];
    if (previous.length === 1 && players.includes(last)) return verbs;
    return [...cards, "to", "on", "for"];
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
    if (live()) { listen(); words(); }
  });
})();

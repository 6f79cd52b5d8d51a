// Hegemon's pages: signing in, the countdowns, orders given by clicking on the
// board, readiness, the game master's actions, and reading the game again when it moves on
// (told by the game's live event stream, or asking every few seconds while it is down).
// Every change goes through the JSON API with the page's CSRF token.
"use strict";

(() => {
  const POLL_MS = 3000;

  // --- talking to the server ------------------------------------------------------------
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;

  async function api(method, path, body) {
    const options = { method, headers: { "X-CSRF-Token": csrf() }, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const answer = await fetch(path, options);
    const data = await answer.json().catch(() => ({}));
    if (!answer.ok) {
      const error = new Error(data.detail || answer.statusText);
      error.problems = data.problems || [];
      throw error;
    }
    return data;
  }

  function say(where, text, bad = false) {
    if (!where) return;
    where.textContent = text;
    where.classList.toggle("bad", bad);
  }

  // Why the server refused: its one line, and each refused input's reason it lists that
  // the line does not already say (one refused order's reason too, never only a count).
  function why(error) {
    const more = (error.problems || []).filter((problem) => !error.message.includes(problem));
    return more.length ? `${error.message}: ${more.join("; ")}` : error.message;
  }

  function element(tag, attributes = {}, text = "") {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
    if (text) made.textContent = text;
    return made;
  }

  // Read the page again and put its content in place of this one's, without reloading.
  // What is marked `data-keep` (the press panel: its thread, a message half written; the
  // game master's last word) stays as it is, in its place in the new content.
  let refreshing = null;

  // One reading at a time: a second reason to read the page while it is being read (an
  // action's answer and the event it caused) waits for the reading under way.
  function refresh() {
    if (!refreshing) refreshing = readAgain().finally(() => (refreshing = null));
    return refreshing;
  }

  async function readAgain() {
    const answer = await fetch(location.href, { credentials: "same-origin" });
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const main = page.querySelector("main");
    for (const kept of document.querySelectorAll("main [data-keep][id]")) {
      const place = main.querySelector(`#${CSS.escape(kept.id)}`);
      if (place) place.replaceWith(kept);
    }
    const focused = document.activeElement && document.activeElement.id; // the keyboard's place
    document.querySelector("main").replaceWith(main);
    document.title = page.title;
    start();
    const again = focused && document.getElementById(focused);
    if (again) again.focus({ preventScroll: true });
    document.dispatchEvent(new CustomEvent("hegemon:refreshed"));
  }

  // What the page's other scripts (press.js) share of this one.
  window.hegemon = { api, element, say, why, refresh };

  // --- countdowns -----------------------------------------------------------------------
  const pad = (n) => String(n).padStart(2, "0");

  function timeLeft(deadline) {
    let seconds = Math.floor((Date.parse(deadline) - Date.now()) / 1000);
    if (Number.isNaN(seconds)) return deadline;
    if (seconds <= 0) return "passed";
    const days = Math.floor(seconds / 86400);
    seconds %= 86400;
    const clock = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
    return `${days ? `${days} d ` : ""}${clock} left`;
  }

  function tick() {
    for (const time of document.querySelectorAll("time.countdown")) {
      time.textContent = timeLeft(time.dateTime);
      time.title = new Date(time.dateTime).toLocaleString();
    }
  }

  // --- reading the game again once it moves on ------------------------------------------
  // The game's event stream says when something happened: a phase adjudicated, the game's
  // state or its members changed (the page is read again, unless it was read since: an
  // action's own answer), orders in or ready (the table of powers is updated), a message (passed to the press panel as a "hegemon:message" event). While
  // the stream is down the page asks where the game stands every POLL_MS instead, and the
  // press panel is told to catch up ("hegemon:poll"); polling stops once the stream is back.
  const RETRY_MS = [1000, 2000, 5000, 10000, 30000]; // waits before opening a closed stream again
  let followed = null; // the game's data as the page last read it
  let polling = null;
  let stream = null;

  async function check() {
    const data = followed;
    let now;
    try {
      now = await api("GET", `/api/games/${data.game}/progress`);
    } catch {
      return; // a moment offline: ask again at the next beat
    }
    if (data !== followed) return; // the page was read again meanwhile
    if (now.played !== data.played || now.status !== data.status || now.version !== data.version) {
      refresh();
      return;
    }
    for (const row of document.querySelectorAll("tr[data-seat]")) {
      const power = row.dataset.seat;
      const cell = row.querySelector(".state");
      if (!cell || /disorder/.test(cell.textContent)) continue;
      if (now.ready.includes(power)) cell.textContent = "ready";
      else if (now.received.includes(power)) cell.textContent = "in";
    }
  }

  function poll(on) {
    if (on && !polling) {
      polling = setInterval(() => {
        check();
        document.dispatchEvent(new CustomEvent("hegemon:poll"));
      }, POLL_MS);
    } else if (!on && polling) {
      clearInterval(polling);
      polling = null;
    }
  }

  class Stream {
    constructor(game, since) {
      this.game = game;
      this.seen = since; // the last event's id: a stream opened again resumes after it
      this.failures = 0;
      this.open();
    }

    open() {
      const after = this.seen ? `?${new URLSearchParams({ after: this.seen })}` : "";
      const source = new EventSource(`/api/games/${this.game}/events${after}`);
      const blind = !this.seen || this.failures; // what happened before it opened is not in it
      this.source = source;
      source.onopen = () => {
        if (blind) {
          check();
          document.dispatchEvent(new CustomEvent("hegemon:poll"));
        }
        this.failures = 0;
        poll(false);
      };
      source.onerror = () => {
        poll(true);
        // The browser opens a dropped stream again by itself (with Last-Event-ID); one
        // the server refused or ended for good is closed, and opened here, later.
        if (source.readyState === EventSource.CLOSED && stream === this) {
          const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
          setTimeout(() => stream === this && this.open(), wait);
        }
        this.failures += 1;
      };
      for (const kind of ["message", "orders", "ready", "phase", "game", "members", "vote"]) {
        source.addEventListener(kind, (event) => this.received(kind, event));
      }
    }

    received(kind, event) {
      if (event.lastEventId) this.seen = event.lastEventId;
      if (kind === "message") {
        document.dispatchEvent(new CustomEvent("hegemon:message", { detail: JSON.parse(event.data) }));
      } else if (kind === "members" || kind === "vote") {
        refresh(); // a seat taken or given to another; a public vote, or one that passed
      } else {
        check(); // the table of powers, or a new phase, the game started, paused or ended
      }
    }
  }

  function follow(data) {
    followed = data;
    if (stream && stream.game === data.game) return; // the page read again: the same stream
    if (!window.EventSource) return poll(true);
    stream = new Stream(data.game, data.since);
  }

  // --- sign in, sign out ----------------------------------------------------------
  function signInPage() {
    const form = document.getElementById("hg-signin");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const message = form.querySelector(".message");
      const credentials = { name: form.elements.name.value, password: form.elements.password.value };
      try {
        if (event.submitter && event.submitter.name === "register") {
          await api("POST", "/api/accounts", credentials);
        }
        await api("POST", "/api/sessions", { ...credentials, cookie: true });
        location.assign(form.dataset.next || "/");
      } catch (error) {
        say(message, why(error), true);
      }
    });
  }

  // A game the user takes no part in: observe it, then see it.
  function refusedPage() {
    const form = document.getElementById("hg-observe");
    if (!form) return;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("POST", `/api/games/${form.dataset.game}/observe`);
        location.reload();
      } catch (error) {
        say(form.querySelector(".message"), why(error), true);
      }
    });
  }

  // --- the account: a new password, signing out everywhere ------------------------------
  function accountPage() {
    const message = document.getElementById("hg-message");
    const change = document.getElementById("hg-password-change");
    change.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const body = { current: change.elements.current.value, new: change.elements.new.value };
        const answer = await api("POST", "/api/me/password", body);
        change.reset();
        const others = answer.signed_out === 1 ? "1 other session" : `${answer.signed_out} other sessions`;
        say(message, `Password changed; ${others} signed out.`);
      } catch (error) {
        say(message, why(error), true);
      }
    });
    document.getElementById("hg-everywhere").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("DELETE", "/api/sessions");
        location.assign("/signin");
      } catch (error) {
        say(message, why(error), true);
      }
    });
  }

  // --- the game master's actions --------------------------------------------------------
  const ACTIONS = {
    start: () => undefined,
    adjudicate: () => ({}),
    "fill-with-bots": () => undefined,
    extend: (form) => ({ seconds: Math.round(Number(form.elements.hours.value) * 3600) }),
    pause: () => undefined,
    resume: () => undefined,
    replace: (form) => ({ power: form.elements.power.value, user: form.elements.user.value }),
    assign: (form) => ({ power: form.elements.power.value, user: form.elements.user.value }),
    disorder: (form) => ({ power: form.elements.power.value, disorder: form.elements.disorder.checked }),
    end: (form) => ({ draw: [...form.querySelectorAll("input[name=draw]:checked")].map((i) => i.value) }),
  };

  function masterPage(data) {
    for (const form of document.querySelectorAll("form[data-action]")) {
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const action = form.dataset.action;
        try {
          await api("POST", `/api/games/${data.game}/${action}`, ACTIONS[action](form));
          await refresh();
          say(document.getElementById("hg-message"), `Done: ${action}.`);
        } catch (error) {
          say(document.getElementById("hg-message"), why(error), true);
        }
      });
    }
  }

  // --- orders by clicking ---------------------------------------------------------------
  // The page knows no variant and no order's notation: it renders the power's order forms
  // (the API's `options` answer) and sends back the order a form lists, as the server
  // wrote it, or the form filled in, from which the server makes the order.
  const KIND_NAMES = {
    hold: "Hold", move: "Move", support: "Support", convoy: "Convoy", retreat: "Retreat",
    disband: "Disband", build: "Build", waive: "Waive",
  };
  const FIRST_KINDS = ["move", "retreat"]; // chosen at once when a unit is picked

  // What a click means next, by the kind of order and how many provinces are clicked.
  function nextStep(kind, clicked) {
    if (kind === "support") return clicked ? "click where it moves, or click it again to support it where it stands" : "click the unit to support";
    if (kind === "convoy") return clicked ? "click where the army lands" : "click the army to convoy";
    if (kind === "move" || kind === "retreat") return "click where it goes";
    return "click a province, or choose below";
  }

  class Orders {
    constructor(data) {
      this.data = data;
      this.figure = document.getElementById("hg-board");
      this.hint = document.getElementById("hg-hint");
      this.message = document.getElementById("hg-message");
      this.picker = document.getElementById("hg-picker");
      this.load(data.choices);
      this.reset();
      this.listen();
      this.showOrders();
      this.centreOnMine();
      const example = this.forms.flatMap((f) => f.choices).find((c) => c.clicks.length);
      if (example) document.getElementById("hg-order").placeholder = example.text;
    }

    // On a phone the board is a window on the map: it opens on my units.
    centreOnMine() {
      const figure = this.figure;
      const mine = this.board && this.board.querySelector(`[data-power="${CSS.escape(this.acting())}"]`);
      if (!mine || (figure.scrollWidth <= figure.clientWidth && figure.scrollHeight <= figure.clientHeight)) return;
      const unit = mine.getBoundingClientRect();
      const frame = figure.getBoundingClientRect();
      figure.scrollLeft += unit.left - frame.left - figure.clientWidth / 2;
      figure.scrollTop += unit.top - frame.top - figure.clientHeight / 2;
    }

    // The board drawn now: drawn again, with my orders, each time they change.
    get board() {
      return this.figure && this.figure.querySelector("svg");
    }

    // The forms as the server sent them: my units' (by the unit, as its orders name it:
    // two units off the board stand at one place), the sites' (no unit: builds,
    // placements), and those offered beside them (with an action of their own: what I
    // may order for units and states that are not mine).
    load(choices) {
      this.choices = choices;
      this.forms = choices.forms;
      this.units = new Map();
      this.sites = [];
      for (const form of this.forms) {
        if (form.unit && !form.action) this.units.set(form.title, form);
        else if (!form.unit && !form.sites.length) this.sites.push(form);
      }
    }

    // My unit standing in a province (a carrier before the units it carries).
    unitAt(province) {
      return [...this.units.values()].find((form) => form.unit === province);
    }

    // The provinces a click opens a form at where no unit of mine stands: build sites,
    // placements, the states points go to. Outlined while nothing is picked.
    siteProvinces() {
      const found = new Set();
      for (const form of this.forms) {
        if (form.unit) continue;
        for (const site of form.sites) found.add(site);
        for (const choice of form.choices) if (choice.clicks.length) found.add(choice.clicks[0]);
      }
      return [...found];
    }

    // What to do first, as the phase's forms say: move units, build, place, spend points.
    restingHint(sites) {
      if (!this.forms.length) return "Nothing to order this phase.";
      const atSites = this.forms.filter((f) => !f.unit && (f.sites.length || f.choices.some((c) => c.clicks.length)));
      const actions = [...new Set(atSites.map((f) => f.action || f.title))];
      const outlined = sites.length ? `a province outlined on the board (${actions.join(", ")})` : "";
      if (this.units.size) {
        return `Click one of your units${outlined ? ` or ${outlined}` : ""} on the board, or choose it in the list below.`;
      }
      return outlined ? `Click ${outlined}, or choose in the list below.` : "Choose in the list below.";
    }

    name(province) {
      const shape = this.board && this.board.getElementById(province);
      return (shape && shape.dataset.name) || province;
    }

    listen() {
      if (this.figure) {
        this.figure.addEventListener("click", (event) => this.clickedOn(event.target));
        this.figure.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            this.clickedOn(event.target);
          }
        });
      }
      document.getElementById("hg-cancel").addEventListener("click", () => this.cancel());
      this.picker.addEventListener("keydown", (event) => this.keyed(event));
      document.getElementById("hg-write").addEventListener("submit", (event) => {
        event.preventDefault();
        const input = document.getElementById("hg-order");
        if (input.value.trim()) this.give(input.value.trim()).then((ok) => ok && (input.value = ""));
      });
      document.getElementById("hg-ready").addEventListener("click", () => this.toggleReady());
    }

    clickedOn(target) {
      const glyph = target.closest("[data-unit]");
      const mine = glyph && glyph.dataset.power === this.acting() && this.units.get(glyph.dataset.unit);
      if (mine && !this.menu) return this.pick(mine); // the very unit clicked, of two at a place
      const shape = target.closest("[data-province], .province");
      if (!shape) return;
      this.clicked(shape.dataset.province || shape.id);
    }

    // --- the state of the choice: a form picked, its kind, the provinces clicked ----------
    reset() {
      this.menu = null;
      this.kind = null;
      this.clicks = [];
      this.list = [];
      this.picker.hidden = true;
      const sites = this.siteProvinces();
      say(this.hint, this.restingHint(sites));
      this.highlight(sites);
    }

    // Esc or Cancel: nothing picked, and the keyboard back on the unit it was at.
    cancel() {
      const was = this.menu;
      const inside = this.picker.contains(document.activeElement);
      this.reset();
      if (inside) this.focusUnit(was && was.title, false);
    }

    // --- the keyboard in the choice -----------------------------------------------------
    // Left and right: the kind of order; up and down: the buttons; a letter: the next
    // button for a province (or an order) of that letter. So a move is Enter on the unit,
    // a letter or two, Enter; a support, Enter, right, a letter, Enter, a letter, Enter.
    keyed(event) {
      if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, select, textarea")) return;
      const buttons = [...this.picker.querySelectorAll("#hg-steps button, #hg-candidates button")];
      const at = buttons.indexOf(document.activeElement);
      let next = null;
      if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && this.menu) {
        const kinds = [...new Set(this.menu.choices.map((c) => c.kind))];
        if (kinds.length < 2) return;
        const step = event.key === "ArrowRight" ? 1 : -1;
        event.preventDefault();
        return this.chooseKind(kinds[(kinds.indexOf(this.kind) + step + kinds.length) % kinds.length]);
      }
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        next = buttons[(at + (event.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length];
      } else if (event.key.length === 1 && /\p{L}/u.test(event.key)) {
        const letter = event.key.toLowerCase();
        const order = [...buttons.slice(at + 1), ...buttons.slice(0, at + 1)];
        next = order.find((b) => b.dataset.key.toLowerCase().startsWith(letter));
      }
      if (next) {
        event.preventDefault();
        next.focus();
      }
    }

    // The keyboard's place once a choice is shown: the first province or order to choose.
    focusChoice() {
      const places = ["#hg-steps button", "#hg-candidates button", "#hg-extra input, #hg-extra select, #hg-extra button", "#hg-kinds button"];
      const first = places.map((place) => this.picker.querySelector(place)).find(Boolean);
      if (first) first.focus({ preventScroll: true });
    }

    // The keyboard's place once an order is stored: the next unit with no order yet (or
    // the unit itself), never lost to the page's body.
    focusUnit(title, onward = true) {
      const items = [...document.querySelectorAll("#hg-units li")];
      const at = items.findIndex((item) => item.dataset.unit === title);
      const later = onward ? [...items.slice(at + 1), ...items.slice(0, at + 1)] : [];
      const item = later.find((i) => i.querySelector(".order.none")) || items[at] || items[0];
      const button = item ? item.querySelector("button") : document.getElementById("hg-order");
      if (button) button.focus({ preventScroll: true });
    }

    pick(form) {
      this.menu = form;
      this.clicks = [];
      this.list = [];
      const kinds = [...new Set(form.choices.map((c) => c.kind))];
      this.kind = form.unit ? kinds.find((k) => FIRST_KINDS.includes(k)) || null : null;
      this.show();
      this.focusChoice();
    }

    chooseKind(kind) {
      this.kind = kind;
      this.clicks = [];
      const only = this.candidates();
      if (only.length === 1 && !only[0].clicks.length && !this.menu.fields.length) return this.choose(only[0]);
      this.show();
      this.focusChoice();
    }

    clicked(province) {
      if (!this.menu) return this.openProvince(province);
      if (this.menu.ranking) return this.rank(province);
      const wanted = [...this.clicks, province];
      const fitting = this.candidates(wanted);
      if (!fitting.length) {
        if (province === this.menu.unit && !this.clicks.length) return this.reset();
        if (!this.clicks.length && this.unitAt(province)) return this.pick(this.unitAt(province));
        say(this.hint, `${this.name(province)} is no choice here: ${nextStep(this.kind, this.clicks.length)}.`);
        return;
      }
      this.clicks = wanted;
      const exact = fitting.filter((c) => c.clicks.length === wanted.length);
      if (exact.length === 1 && fitting.length === 1 && !this.menu.fields.length) return this.choose(exact[0]);
      const keyed = this.picker.contains(document.activeElement);
      this.show();
      if (keyed) this.focusChoice(); // chosen from the panel: the keyboard goes on there
    }

    // The choices of the form picked that fit the kind chosen and the provinces clicked.
    candidates(clicks = this.clicks) {
      return this.menu.choices.filter(
        (c) => (!this.kind || c.kind === this.kind) && clicks.every((p, i) => c.clicks[i] === p),
      );
    }

    // The forms a click on a province opens, besides my unit's there.
    formsAt(province) {
      return this.forms.filter((f) => (f.unit ? f.action && f.unit === province
        : f.sites.includes(province) || f.choices.some((c) => c.clicks[0] === province)));
    }

    // Nothing picked: my unit there, or what the province offers (a build, a placement,
    // an order for a unit that is not mine, points for a state).
    openProvince(province) {
      if (this.unitAt(province)) return this.pick(this.unitAt(province));
      const here = this.formsAt(province);
      if (!here.length) {
        say(this.hint, `${this.name(province)}: nothing to order there. ${this.restingHint(this.siteProvinces())}`);
        return;
      }
      // A form taking a list beside a plain choice there (a placement in turn, and a list
      // for the turns to come) is opened from the panel: the click gives the plain one, as
      // a player in turn means.
      const plain = here.filter((f) => !f.ranking);
      const opened = plain.length === 1 ? plain : here;
      if (opened.length === 1 && !opened[0].action) return this.openAt(opened[0], province);
      this.showProvince(province, here);
    }

    // A form of sites opened by a click on one: the click counts as its first.
    openAt(form, province) {
      this.pick(form);
      return form.ranking ? this.rank(province) : this.clicked(province);
    }

    // --- showing the choice ---------------------------------------------------------------
    show() {
      const menu = this.menu;
      this.picker.hidden = false;
      document.getElementById("hg-picked").textContent = menu.title;
      const kinds = document.getElementById("hg-kinds");
      kinds.replaceChildren();
      const present = [...new Set(menu.choices.map((c) => c.kind))];
      if (present.length > 1) {
        for (const kind of present) {
          const button = element("button", { type: "button", "aria-pressed": String(kind === this.kind) }, KIND_NAMES[kind] || kind);
          button.addEventListener("click", () => this.chooseKind(kind));
          kinds.append(button);
        }
      }
      const extra = document.getElementById("hg-extra");
      const kept = this.values(menu); // the fields keep their values as the choice narrows
      extra.replaceChildren(...this.fields(menu, kept));
      if (menu.ranking) this.showList(extra);
      const list = document.getElementById("hg-candidates");
      list.replaceChildren();
      const fitting = menu.ranking ? [] : this.candidates();
      const named = (text) => (text.startsWith(menu.title) ? text.slice(menu.title.length).trim() : text);
      for (const choice of fitting) {
        const button = element("button", { type: "button", class: "order-choice", "data-key": named(choice.text) }, choice.text);
        button.addEventListener("click", () => this.choose(choice));
        list.append(element("li"));
        list.lastChild.append(button);
      }
      const upcoming = menu.ranking
        ? menu.choices.map((c) => c.clicks[0]).filter((p) => !this.list.includes(p))
        : fitting.filter((c) => c.clicks.length > this.clicks.length).map((c) => c.clicks[this.clicks.length]);
      this.showSteps([...new Set(upcoming)]);
      let step = nextStep(this.kind, this.clicks.length);
      if (menu.ranking) step = "click provinces in the order you want them, best first";
      else if (!upcoming.length) step = "choose below";
      const clicked = this.clicks.map((p) => this.name(p)).join(", ");
      say(this.hint, `${menu.title}${clicked ? ` (${clicked})` : ""}: ${step}.`);
      this.highlight(upcoming, [menu.unit, ...this.clicks, ...this.list]);
    }

    // The provinces a click may pick next, as buttons too: for the keyboard, and for a
    // province too small to hit on a phone.
    showSteps(provinces) {
      const steps = document.getElementById("hg-steps");
      steps.replaceChildren();
      for (const province of provinces) {
        const name = this.name(province);
        const button = element("button", { type: "button", "data-key": name }, name);
        button.addEventListener("click", () => this.clicked(province));
        steps.append(button);
      }
      steps.hidden = !provinces.length;
    }

    showList(extra) {
      const list = element("ol", { class: "ranking", "aria-label": "Your list, best first" });
      for (const province of this.list) list.append(element("li", {}, this.name(province)));
      const send = element("button", { type: "button", class: "primary" }, "Send the list");
      send.disabled = !this.list.length;
      send.addEventListener("click", () => {
        const picks = this.list.map((p) => this.menu.choices.findIndex((c) => c.clicks[0] === p));
        this.send(this.menu, picks);
      });
      extra.append(list, send);
    }

    rank(province) {
      if (!this.menu.choices.some((c) => c.clicks[0] === province)) {
        say(this.hint, `${this.name(province)} cannot be placed in.`);
        return;
      }
      const at = this.list.indexOf(province);
      if (at >= 0) this.list.splice(at, 1);
      else if (this.menu.most !== null && this.list.length >= this.menu.most) {
        say(this.hint, `${this.menu.title}: ${this.menu.most} at most; click one listed to take it out.`);
        return;
      } else this.list.push(province);
      this.show();
    }

    // A choice of the form picked: the order as the server wrote it, or the form filled in.
    choose(choice) {
      const menu = this.menu;
      if (!menu.fill) return this.give(choice.text);
      return this.send(menu, [menu.choices.indexOf(choice)]);
    }

    // --- the fields of a form ---------------------------------------------------------------
    fieldId(form, field) {
      return `hg-field-${this.forms.indexOf(form)}-${field.name}`;
    }

    fields(form, kept = {}) {
      const made = [];
      for (const field of form.fields) {
        const id = this.fieldId(form, field);
        let input;
        if (field.type === "amount") {
          const value = String(kept[field.name] ?? field.least);
          input = element("input", { id, type: "number", min: String(field.least), max: String(field.most), value, required: "" });
        } else {
          input = element("select", { id });
          for (const value of field.values) input.append(element("option", {}, value));
          if (kept[field.name] !== undefined) input.value = kept[field.name];
        }
        made.push(element("label", { for: id }, field.label), input);
      }
      return made;
    }

    values(form) {
      const values = {};
      for (const field of form.fields) {
        const input = document.getElementById(this.fieldId(form, field));
        if (!input) continue;
        values[field.name] = field.type === "amount" ? Number(input.value) : input.value;
      }
      return values;
    }

    showProvince(province, forms) {
      this.picker.hidden = false;
      document.getElementById("hg-picked").textContent = this.name(province);
      document.getElementById("hg-kinds").replaceChildren();
      document.getElementById("hg-candidates").replaceChildren();
      this.showSteps([]);
      const extra = document.getElementById("hg-extra");
      extra.replaceChildren();
      for (const form of forms) {
        if (form.choices.length) { // a form to open: its choices are picked
          const button = element("button", { type: "button" }, form.action || form.title);
          button.addEventListener("click", () => (form.unit ? this.pick(form) : this.openAt(form, province)));
          extra.append(element("p"));
          extra.lastChild.append(button);
          continue;
        }
        const group = element("div", { class: "form-fields" });
        const send = element("button", { type: "button", class: "primary" }, form.action || form.title);
        send.addEventListener("click", () => this.send(form, []));
        group.append(...this.fields(form), send);
        extra.append(group);
      }
      say(this.hint, `${this.name(province)}: choose below.`);
      this.highlight([], [province]);
      this.focusChoice();
    }

    // The provinces a click may pick next, outlined and reachable by the keyboard; those
    // chosen so far (the unit's, the ones clicked), outlined in the page's colour.
    highlight(provinces, chosen = []) {
      this.outlined = [provinces, chosen]; // drawn again on the board once it is redrawn
      if (!this.board) return;
      const targets = new Set(provinces);
      for (const shape of this.board.querySelectorAll(".province")) {
        const on = targets.has(shape.id);
        shape.classList.toggle("target", on);
        shape.classList.toggle("chosen", chosen.includes(shape.id));
        if (on) {
          shape.setAttribute("tabindex", "0");
          shape.setAttribute("role", "button");
          shape.setAttribute("aria-label", shape.dataset.name);
        } else {
          shape.removeAttribute("tabindex");
          shape.removeAttribute("role");
          shape.removeAttribute("aria-label");
        }
      }
    }

    // --- my orders, as stored -------------------------------------------------------------
    showOrders() {
      const given = new Set(this.data.pending.orders);
      const list = document.getElementById("hg-units");
      list.replaceChildren();
      for (const form of this.units.values()) {
        const order = form.given && given.has(form.given) ? form.given : null;
        given.delete(order);
        const item = element("li", { "data-unit": form.title });
        const choose = element("button", { type: "button", class: "unit-choice" }, form.title);
        choose.addEventListener("click", () => this.pick(form));
        item.append(choose, element("span", { class: order ? "order" : "order none" }, order || "no order yet"));
        if (order) item.append(this.withdrawButton(order));
        list.append(item);
      }
      for (const form of this.sites) {
        const item = element("li");
        const choose = element("button", { type: "button", class: "unit-choice" }, form.action || form.title);
        choose.addEventListener("click", () => (form.choices.length ? this.pick(form) : this.showForm(form)));
        item.append(choose);
        list.append(item);
      }
      const others = document.getElementById("hg-given");
      others.replaceChildren();
      if (given.size) others.append(element("li", { class: "heading" }, "Other orders"));
      for (const order of given) {
        const item = element("li", { class: "other" });
        item.append(element("span", { class: "order" }, order), this.withdrawButton(order));
        others.append(item);
      }
      for (const what of this.data.pending.unordered) {
        if (!this.units.size) others.append(element("li", { class: "none" }, `Still to give: ${what}`));
      }
      for (const warning of this.data.pending.warnings) {
        others.append(element("li", { class: "warning" }, `Warning: ${warning}`));
      }
      const purses = document.getElementById("hg-purses");
      purses.replaceChildren(...this.choices.purses.map((p) => element("li", {}, `${p.name}s left: ${p.left} of ${p.total}`)));
      const ready = document.getElementById("hg-ready");
      ready.setAttribute("aria-pressed", String(this.data.pending.ready));
      ready.textContent = this.data.pending.ready ? "Ready ✓ (click to take it back)" : "Mark me ready";
    }

    // A form of fields alone, opened from the list (aid to a state).
    showForm(form) {
      this.menu = null;
      this.picker.hidden = false;
      document.getElementById("hg-picked").textContent = form.title;
      document.getElementById("hg-kinds").replaceChildren();
      document.getElementById("hg-candidates").replaceChildren();
      this.showSteps([]);
      const send = element("button", { type: "button", class: "primary" }, form.action || form.title);
      send.addEventListener("click", () => this.send(form, []));
      document.getElementById("hg-extra").replaceChildren(...this.fields(form), send);
      say(this.hint, `${form.title}: fill it in below.`);
      this.focusChoice();
    }

    withdrawButton(order) {
      const button = element("button", { type: "button", class: "withdraw", "aria-label": `Withdraw ${order}`, title: "Withdraw" }, "✕");
      button.addEventListener("click", () => this.withdraw(order));
      return button;
    }

    acting() {
      return this.data.choices.power;
    }

    // An order as the server wrote it (or as the player wrote it in the box).
    give(text) {
      return this.store({ orders: [text] }, text);
    }

    // A form filled in: the server makes the order.
    send(form, picks) {
      const filled = { form: form.id, picks, values: this.values(form) };
      return this.store({ orders: [], forms: [filled] }, form.action || form.title);
    }

    async store(body, what) {
      const unit = this.menu && this.menu.unit ? this.menu.title : null;
      const keyed = this.picker.contains(document.activeElement);
      this.reset(); // the next click starts a new order, even before the answer comes
      if (keyed) this.focusUnit(unit, false); // not lost while the answer comes
      say(this.message, `Sending ${what}…`);
      const before = new Set(this.data.pending.orders);
      try {
        this.data.pending = await api("POST", `/api/games/${this.data.game}/orders`, {
          ...body, phase: this.choices.phase, power: this.acting(),
        });
        await this.reload();
        if (keyed) this.focusUnit(unit);
        const added = this.data.pending.orders.filter((o) => !before.has(o));
        say(this.message, `Stored: ${added.join(", ") || what}`);
        return true;
      } catch (error) {
        say(this.message, why(error), true);
        return false;
      }
    }

    // The forms again, once my orders changed: which order each unit has, what is left;
    // and the board drawn again with my orders on it.
    async reload() {
      const query = new URLSearchParams({ power: this.acting() });
      const [choices] = await Promise.all([
        api("GET", `/api/games/${this.data.game}/options?${query}`),
        this.redraw(),
      ]);
      this.load(choices);
      this.showOrders();
      if (!this.menu) this.reset();
    }

    // The board with the orders I have given so far (mine alone: the server draws the
    // caller's own), in place of the one shown, outlined as it was.
    async redraw() {
      const query = new URLSearchParams({ orders: "true", power: this.acting() });
      const answer = await fetch(`/api/games/${this.data.game}/board.svg?${query}`, { credentials: "same-origin" });
      if (!answer.ok || !this.board) return;
      const drawn = new DOMParser().parseFromString(await answer.text(), "image/svg+xml").documentElement;
      this.board.replaceWith(document.importNode(drawn, true));
      this.highlight(...this.outlined);
    }

    async withdraw(text) {
      const query = new URLSearchParams({ order: text, phase: this.choices.phase, power: this.acting() });
      const item = document.activeElement && document.activeElement.closest("#hg-units li");
      try {
        this.data.pending = await api("DELETE", `/api/games/${this.data.game}/orders?${query}`);
        await this.reload();
        this.focusUnit(item ? item.dataset.unit : null, false); // the list was made again
        say(this.message, `Withdrawn: ${text}`);
      } catch (error) {
        say(this.message, why(error), true);
      }
    }

    async toggleReady() {
      try {
        const answer = await api("POST", `/api/games/${this.data.game}/ready`, {
          ready: !this.data.pending.ready, power: this.acting(),
        });
        if (answer.adjudicated.length) return refresh();
        this.data.pending.ready = answer.ready;
        this.showOrders();
        say(this.message, answer.ready ? "You are ready." : "You are not ready any more.");
      } catch (error) {
        say(this.message, why(error), true);
      }
    }
  }

  // --- the phase slider: the boards of the phases played, beside the board now ----------
  // Arrow keys on the slider step a phase at a time (an input of type range); the last
  // place is the board now, with my orders; the others, a phase's board with its orders.
  function phaseSlider() {
    const slider = document.getElementById("hg-slider");
    if (!slider) return;
    const range = document.getElementById("hg-phase-range");
    const names = JSON.parse(document.getElementById("hg-phase-names").textContent);
    const live = document.getElementById("hg-board");
    const past = document.getElementById("hg-past");
    const shown = document.getElementById("hg-phase-shown");
    const report = document.getElementById("hg-phase-report");
    const now = shown.textContent;
    let asked = 0; // the latest board asked for: an earlier answer coming late is dropped
    range.addEventListener("input", async () => {
      const number = Number(range.value);
      const current = number > names.length;
      const words = current ? now : `${names[number - 1]}, with its orders`;
      shown.textContent = words;
      range.setAttribute("aria-valuetext", words);
      report.hidden = current;
      report.href = `/games/${slider.dataset.game}/phases/${number}`;
      asked += 1;
      if (current) {
        live.hidden = false;
        past.hidden = true;
        return;
      }
      const mine = asked;
      const answer = await fetch(`/api/games/${slider.dataset.game}/phases/${number}/board.svg`, { credentials: "same-origin" });
      if (mine !== asked || !answer.ok) return;
      const drawn = new DOMParser().parseFromString(await answer.text(), "image/svg+xml").documentElement;
      past.replaceChildren(document.importNode(drawn, true));
      past.setAttribute("aria-label", `The board, ${names[number - 1]}`);
      live.hidden = true;
      past.hidden = false;
    });
  }

  // --- each page ------------------------------------------------------------------------
  let orders = null;

  function start() {
    tick();
    const page = document.body.dataset.page;
    const holder = document.getElementById("hg-data");
    const data = holder ? JSON.parse(holder.textContent) : null;
    if (page === "signin") signInPage();
    if (page === "master") masterPage(data);
    if (page === "account") accountPage();
    if (page === "refused") refusedPage();
    if (data) follow(data);
    orders = page === "game" && data.choices ? new Orders(data) : null;
    if (page === "game") phaseSlider();
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && orders) orders.cancel();
  });
  document.addEventListener("click", async (event) => {
    if (!event.target.closest("[data-action=sign-out]")) return;
    await api("DELETE", "/api/sessions/current").catch(() => null);
    location.assign("/signin");
  });
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", start);
})();

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

  const why = (error) =>
    error.problems && error.problems.length > 1 ? error.problems.join("; ") : error.message;

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
    document.querySelector("main").replaceWith(main);
    document.title = page.title;
    start();
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
      this.board = document.querySelector("#hg-board svg");
      this.hint = document.getElementById("hg-hint");
      this.message = document.getElementById("hg-message");
      this.picker = document.getElementById("hg-picker");
      this.load(data.choices);
      this.reset();
      this.listen();
      this.showOrders();
      const example = this.forms.flatMap((f) => f.choices).find((c) => c.clicks.length);
      if (example) document.getElementById("hg-order").placeholder = example.text;
    }

    // The forms as the server sent them: my units' (by where they stand), the sites' (no
    // unit: builds, placements), and those offered beside them (with an action of their
    // own: what I may order for units and states that are not mine).
    load(choices) {
      this.choices = choices;
      this.forms = choices.forms;
      this.units = new Map();
      this.sites = [];
      for (const form of this.forms) {
        if (form.unit && !form.action) this.units.set(form.unit, form);
        else if (!form.unit && !form.sites.length) this.sites.push(form);
      }
    }

    name(province) {
      const shape = this.board && this.board.getElementById(province);
      return (shape && shape.dataset.name) || province;
    }

    listen() {
      if (this.board) {
        this.board.addEventListener("click", (event) => this.clickedOn(event.target));
        this.board.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            this.clickedOn(event.target);
          }
        });
      }
      document.getElementById("hg-cancel").addEventListener("click", () => this.reset());
      document.getElementById("hg-write").addEventListener("submit", (event) => {
        event.preventDefault();
        const input = document.getElementById("hg-order");
        if (input.value.trim()) this.give(input.value.trim()).then((ok) => ok && (input.value = ""));
      });
      document.getElementById("hg-ready").addEventListener("click", () => this.toggleReady());
    }

    clickedOn(target) {
      const shape = target.closest("[data-province], path.province");
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
      say(this.hint, this.forms.length
        ? "Click one of your units on the board, or choose it in the list below."
        : "Nothing to order this phase.");
      this.highlight([]);
    }

    pick(form) {
      this.menu = form;
      this.clicks = [];
      this.list = [];
      const kinds = [...new Set(form.choices.map((c) => c.kind))];
      this.kind = form.unit ? kinds.find((k) => FIRST_KINDS.includes(k)) || null : null;
      this.show();
    }

    clicked(province) {
      if (!this.menu) return this.openProvince(province);
      if (this.menu.ranking) return this.rank(province);
      const wanted = [...this.clicks, province];
      const fitting = this.candidates(wanted);
      if (!fitting.length) {
        if (province === this.menu.unit && !this.clicks.length) return this.reset();
        if (!this.clicks.length && this.units.has(province)) return this.pick(this.units.get(province));
        say(this.hint, `${this.name(province)} is no choice here: ${nextStep(this.kind, this.clicks.length)}.`);
        return;
      }
      this.clicks = wanted;
      const exact = fitting.filter((c) => c.clicks.length === wanted.length);
      if (exact.length === 1 && fitting.length === 1 && !this.menu.fields.length) return this.choose(exact[0]);
      this.show();
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
      if (this.units.has(province)) return this.pick(this.units.get(province));
      const here = this.formsAt(province);
      if (!here.length) {
        say(this.hint, `${this.name(province)}: nothing to order there. Click one of your units.`);
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
          button.addEventListener("click", () => {
            this.kind = kind;
            this.clicks = [];
            const only = this.candidates();
            if (only.length === 1 && !only[0].clicks.length && !menu.fields.length) return this.choose(only[0]);
            this.show();
          });
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
      for (const choice of fitting) {
        const button = element("button", { type: "button", class: "order-choice" }, choice.text);
        button.addEventListener("click", () => this.choose(choice));
        list.append(element("li"));
        list.lastChild.append(button);
      }
      const upcoming = menu.ranking
        ? menu.choices.map((c) => c.clicks[0]).filter((p) => !this.list.includes(p))
        : fitting.filter((c) => c.clicks.length > this.clicks.length).map((c) => c.clicks[this.clicks.length]);
      let step = nextStep(this.kind, this.clicks.length);
      if (menu.ranking) step = "click provinces in the order you want them, best first";
      else if (!upcoming.length) step = "choose below";
      const clicked = this.clicks.map((p) => this.name(p)).join(", ");
      say(this.hint, `${menu.title}${clicked ? ` (${clicked})` : ""}: ${step}.`);
      this.highlight(upcoming, [menu.unit, ...this.clicks, ...this.list]);
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
    }

    // The provinces a click may pick next, outlined and reachable by the keyboard; those
    // chosen so far (the unit's, the ones clicked), outlined in the page's colour.
    highlight(provinces, chosen = []) {
      if (!this.board) return;
      const targets = new Set(provinces);
      for (const shape of this.board.querySelectorAll("path.province")) {
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
      const send = element("button", { type: "button", class: "primary" }, form.action || form.title);
      send.addEventListener("click", () => this.send(form, []));
      document.getElementById("hg-extra").replaceChildren(...this.fields(form), send);
      say(this.hint, `${form.title}: fill it in below.`);
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
      this.reset(); // the next click starts a new order, even before the answer comes
      say(this.message, `Sending ${what}…`);
      const before = new Set(this.data.pending.orders);
      try {
        this.data.pending = await api("POST", `/api/games/${this.data.game}/orders`, {
          ...body, phase: this.choices.phase, power: this.acting(),
        });
        await this.reload();
        const added = this.data.pending.orders.filter((o) => !before.has(o));
        say(this.message, `Stored: ${added.join(", ") || what}`);
        return true;
      } catch (error) {
        say(this.message, why(error), true);
        return false;
      }
    }

    // The forms again, once my orders changed: which order each unit has, what is left.
    async reload() {
      const query = new URLSearchParams({ power: this.acting() });
      this.load(await api("GET", `/api/games/${this.data.game}/options?${query}`));
      this.showOrders();
    }

    async withdraw(text) {
      const query = new URLSearchParams({ order: text, phase: this.choices.phase, power: this.acting() });
      try {
        this.data.pending = await api("DELETE", `/api/games/${this.data.game}/orders?${query}`);
        await this.reload();
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
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && orders) orders.reset();
  });
  document.addEventListener("click", async (event) => {
    if (!event.target.closest("[data-action=sign-out]")) return;
    await api("DELETE", "/api/sessions/current").catch(() => null);
    location.assign("/signin");
  });
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", start);
})();

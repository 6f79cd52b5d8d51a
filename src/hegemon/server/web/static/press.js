// The press panel of a game's page: the conversations with their unread counts, the
// thread chosen, and a message to write. Messages are text: each is put on the page with
// textContent, never as HTML, in an element of its own direction (dir=auto), so that
// nothing a player writes can run, style the page or turn it around. New messages come
// from the game's live stream (hegemon.js passes them on as "hegemon:message"); while the
// stream is down, the panel asks for the conversations at each beat ("hegemon:poll").
"use strict";

(() => {
  const { api, element, say, why } = window.hegemon;
  const PUBLIC = "public";
  const MASTER = "master";
  const PAGE = 50; // messages read at once
  const NEAR_LONGEST = 0.9; // the length is shown from this share of the longest on

  const label = (member) => (member === MASTER ? "Game master" : member);

  class Press {
    constructor(root, data) {
      this.root = root;
      this.game = data.game;
      this.me = data.me; // a power, "master", or null for an observer
      this.colours = data.colours;
      this.conversations = new Map(); // channel -> {channel, members, last, unread}
      this.threads = new Map(); // channel -> {messages: Map(id -> message), read, complete}
      this.shown = PUBLIC;
      this.form = document.getElementById("hg-compose");
      this.list = document.getElementById("hg-conversations");
      this.thread = document.getElementById("hg-thread");
      this.tabs = document.getElementById("hg-tabs");
      this.listen();
      // Where there is no public press to write (gunboat), the first recipient is checked.
      const first = this.form && !this.form.elements.public && this.form.querySelector("input[name=to]");
      if (first) first.checked = true;
      this.catchUp().then(() => this.show(this.form ? this.channel() : PUBLIC));
    }

    api(method, path, body) {
      return api(method, `/api/games/${this.game}/${path}`, body);
    }

    // --- the tabs: the game (orders, powers, phases) or the press -------------------------
    reading() {
      return !this.root.hidden && document.visibilityState === "visible";
    }

    showTab(press) {
      this.tabs.querySelector("#hg-tab-game").setAttribute("aria-selected", String(!press));
      this.tabs.querySelector("#hg-tab-press").setAttribute("aria-selected", String(press));
      document.getElementById("hg-game-pane").hidden = press;
      this.root.hidden = !press;
      if (press) this.markRead();
    }

    listen() {
      this.tabs.addEventListener("click", (event) => {
        const tab = event.target.closest("[role=tab]");
        if (tab) this.showTab(tab.id === "hg-tab-press");
      });
      // The page read again (a new phase): its game pane is new, the press panel the same.
      document.addEventListener("hegemon:refreshed", () => this.showTab(!this.root.hidden));
      document.addEventListener("hegemon:message", (event) => this.receive(event.detail));
      document.addEventListener("hegemon:poll", () => this.catchUp());
      document.addEventListener("visibilitychange", () => this.markRead());
      document.getElementById("hg-older").addEventListener("click", () => this.older());
      if (!this.form) return; // an observer reads
      this.form.addEventListener("change", (event) => this.addressed(event.target));
      this.form.addEventListener("submit", (event) => {
        event.preventDefault();
        this.send();
      });
      const text = this.form.elements.text;
      text.addEventListener("input", () => this.measure());
      text.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          this.send();
        }
      });
    }

    // --- conversations --------------------------------------------------------------------
    conversation(channel) {
      if (!this.conversations.has(channel)) {
        const members = channel === PUBLIC ? [] : channel.split(",");
        this.conversations.set(channel, { channel, members, last: 0, unread: 0 });
      }
      return this.conversations.get(channel);
    }

    threadOf(channel) {
      if (!this.threads.has(channel)) {
        this.threads.set(channel, { messages: new Map(), read: false, complete: false });
      }
      return this.threads.get(channel);
    }

    title(channel) {
      if (channel === PUBLIC) return "Public press";
      const members = channel.split(",");
      const others = members.filter((m) => m !== this.me);
      if (others.length === members.length) return `${members.map(label).join(" · ")} (private)`;
      return `With ${others.map(label).join(", ")}`;
    }

    // The conversations as the server counts them (at the start, and while the stream is
    // down), and what is new in the thread shown.
    async catchUp() {
      let listed;
      try {
        listed = await this.api("GET", "conversations");
      } catch {
        return; // offline a moment: the next beat asks again
      }
      for (const found of listed) {
        const known = this.conversation(found.channel);
        known.members = found.members;
        known.unread = found.unread;
        if (found.last > known.last && this.threads.get(found.channel)?.read) {
          await this.load(found.channel, { after: String(this.newest(found.channel)) });
        }
        known.last = Math.max(known.last, found.last);
      }
      this.markRead();
      this.showList();
    }

    showList() {
      const ordered = [...this.conversations.values()].sort(
        (a, b) => (b.channel === PUBLIC) - (a.channel === PUBLIC) || b.last - a.last,
      );
      this.list.replaceChildren();
      for (const conversation of ordered) {
        const button = element("button", { type: "button", class: "conversation" });
        if (conversation.channel === this.shown) button.setAttribute("aria-current", "true");
        const swatches = element("span", { class: "swatches", "aria-hidden": "true" });
        for (const member of conversation.members.filter((m) => m !== this.me)) {
          swatches.append(this.swatch(member));
        }
        const name = element("span", { class: "name", dir: "auto" }, this.title(conversation.channel));
        button.append(swatches, name);
        if (conversation.unread) {
          button.append(element("span", { class: "count", "aria-label": `${conversation.unread} unread` }, String(conversation.unread)));
        }
        button.addEventListener("click", () => this.show(conversation.channel, true));
        this.list.append(element("li"));
        this.list.lastChild.append(button);
      }
      const unread = ordered.reduce((sum, c) => sum + c.unread, 0);
      const count = document.getElementById("hg-unread");
      count.hidden = !unread;
      count.textContent = String(unread);
      count.setAttribute("aria-label", `${unread} unread`);
    }

    swatch(member) {
      const swatch = element("span", { class: "swatch" });
      const colour = this.colours[member];
      if (colour) swatch.style.background = colour; // the variant's colour, never a message's
      else swatch.classList.add("plain");
      return swatch;
    }

    // --- the thread shown -----------------------------------------------------------------
    async show(channel, address = false) {
      this.shown = channel;
      document.getElementById("hg-thread-title").textContent = this.title(channel);
      const thread = this.threadOf(channel);
      this.render();
      if (address) this.address(channel);
      if (!thread.read && this.conversations.has(channel)) await this.load(channel, {});
      else if (!thread.read) thread.complete = true; // nothing written there yet
      thread.read = true;
      this.markRead();
      this.showList();
    }

    newest(channel) {
      return Math.max(0, ...this.threadOf(channel).messages.keys());
    }

    // Messages of the channel from the server: the latest page, those after one id, or
    // those before one (older pages).
    async load(channel, where) {
      const query = new URLSearchParams({ channel, limit: String(PAGE), ...where });
      let page;
      try {
        page = await this.api("GET", `messages?${query}`);
      } catch (error) {
        say(document.getElementById("hg-press-message"), why(error), true);
        return;
      }
      const thread = this.threadOf(channel);
      if (!where.after && page.length < PAGE) thread.complete = true;
      for (const message of page) this.keep(message);
    }

    async older() {
      const oldest = Math.min(...this.threadOf(this.shown).messages.keys());
      await this.load(this.shown, { before: String(oldest) });
    }

    // A message, once: kept in its thread, shown if its thread is, counted unread if not
    // read. True if it was new.
    keep(message) {
      const thread = this.threadOf(message.channel);
      if (thread.messages.has(message.id)) return false;
      thread.messages.set(message.id, message);
      if (message.channel === this.shown) this.place(message);
      return true;
    }

    receive(message) {
      if (!this.keep(message)) return; // shown already: sent, read, or told twice
      const conversation = this.conversation(message.channel);
      conversation.last = Math.max(conversation.last, message.id);
      if (message.sender !== this.me && !message.mine) conversation.unread += 1;
      this.markRead(); // at once, and on the server too, if it is the thread being read
      this.showList();
    }

    render() {
      this.thread.replaceChildren();
      const thread = this.threadOf(this.shown);
      const ids = [...thread.messages.keys()].sort((a, b) => a - b);
      for (const id of ids) this.place(thread.messages.get(id));
      if (!ids.length) this.thread.append(element("li", { class: "empty" }, "No messages yet."));
      document.getElementById("hg-older").hidden = thread.complete || !ids.length;
    }

    // A message in its place in the thread shown, by id; the thread scrolls to it if it is
    // the newest and the reader was at the end.
    place(message) {
      this.thread.querySelector(".empty")?.remove();
      const atEnd = this.thread.scrollHeight - this.thread.scrollTop - this.thread.clientHeight < 40;
      const later = [...this.thread.children].find((li) => Number(li.dataset.id) > message.id);
      this.thread.insertBefore(this.item(message), later || null);
      document.getElementById("hg-older").hidden = this.threadOf(this.shown).complete;
      if (!later && atEnd) this.thread.scrollTop = this.thread.scrollHeight;
    }

    item(message) {
      const item = element("li", { class: "note", "data-id": String(message.id) });
      if (message.sender === this.me) item.classList.add("own");
      const head = element("p", { class: "from" });
      let from = message.sender === null ? "Anonymous (grey press)" : label(message.sender);
      if (message.sender === this.me) from = `You (${label(this.me)})`;
      if (message.author) from += `, written by ${label(message.author)}`; // the master reads it
      head.append(this.swatch(message.sender), element("strong", { dir: "auto" }, from));
      const sent = new Date(message.sent);
      const when = element("time", { datetime: message.sent }, `${message.phase} · ${sent.toLocaleString([], { dateStyle: "short", timeStyle: "short" })}`);
      head.append(when);
      // The text as text: its own direction, isolated from the page's.
      item.append(head, element("p", { class: "text", dir: "auto" }, message.text));
      return item;
    }

    markRead() {
      const conversation = this.conversations.get(this.shown);
      if (!conversation || !conversation.unread || !this.reading()) return;
      if (!this.threadOf(this.shown).read) return;
      conversation.unread = 0;
      this.showList();
      const body = { channel: this.shown, up_to: Math.max(conversation.last, this.newest(this.shown)) };
      this.api("POST", "conversations/read", body).catch(() => null); // counted again later
    }

    // --- writing --------------------------------------------------------------------------
    voice() {
      return this.form.elements.voice ? this.form.elements.voice.value : "";
    }

    recipients() {
      return [...this.form.querySelectorAll("input[name=to]:checked")].map((i) => i.value);
    }

    // The channel a message to the recipients checked goes to, as the server names it.
    channel() {
      const to = this.recipients();
      if (!to.length) return PUBLIC;
      const order = (a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1); // as the server sorts
      return [...new Set([this.voice() || this.me, ...to])].sort(order).join(",");
    }

    // The recipients of a conversation checked (the one chosen in the list).
    address(channel) {
      if (!this.form) return;
      const members = channel === PUBLIC ? [] : channel.split(",");
      const voices = [...(this.form.elements.voice?.options || [])].map((o) => o.value).filter(Boolean);
      for (const box of this.form.querySelectorAll("input[name=to]")) box.checked = members.includes(box.value);
      if (this.form.elements.voice) this.form.elements.voice.value = members.find((m) => voices.includes(m)) || "";
      if (this.form.elements.public) this.form.elements.public.checked = !members.length;
      if (members.length && this.form.elements.grey) this.form.elements.grey.checked = false;
    }

    // A recipient checked or not: everyone and a power exclude each other, grey press is
    // public; the thread shown is the one the message will go to.
    addressed(input) {
      const elements = this.form.elements;
      if (input.name === "public" && input.checked) {
        for (const box of this.form.querySelectorAll("input[name=to]")) box.checked = false;
      }
      if (input.name === "to" && input.checked) {
        if (elements.public) elements.public.checked = false;
        if (elements.grey) elements.grey.checked = false;
      }
      if (input.name === "grey" && input.checked) {
        for (const box of this.form.querySelectorAll("input[name=to]")) box.checked = false;
      }
      if (!this.recipients().length) {
        if (elements.public) elements.public.checked = true;
        else input.checked = true; // no public press to fall back on: someone is addressed
      }
      if (input.name !== "text" && this.channel() !== this.shown) this.show(this.channel());
    }

    measure() {
      const text = this.form.elements.text;
      const length = [...text.value].length;
      const longest = Number(text.getAttribute("maxlength"));
      document.getElementById("hg-length").textContent =
        length >= longest * NEAR_LONGEST ? `${length} / ${longest} characters` : "";
    }

    async send() {
      const elements = this.form.elements;
      const text = elements.text.value;
      const where = document.getElementById("hg-press-message");
      if (!text.trim()) {
        say(where, "Write a message first.", true);
        return;
      }
      const button = this.form.querySelector("button[type=submit]");
      button.disabled = true;
      say(where, "Sending…");
      try {
        const sent = await this.api("POST", "messages", {
          to: this.recipients(),
          text,
          grey: Boolean(elements.grey && elements.grey.checked),
          voice: this.voice() || null,
        });
        elements.text.value = "";
        this.measure();
        say(where, "");
        this.receive({ ...sent, mine: true });
        if (sent.channel !== this.shown) this.show(sent.channel);
      } catch (error) {
        say(where, why(error), true);
      } finally {
        button.disabled = false;
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("hg-press");
    const data = document.getElementById("hg-press-data");
    if (root && data) new Press(root, JSON.parse(data.textContent));
  });
})();

/* Telling players it is their turn while they look at another tab, on every page: the tab's
   title ("(1) Your turn · …") and icon always; a short sound and a browser notification when
   they turned those on in their profile.  What counts: the game on this page waiting for
   them, and the navigation badge's number of games waiting (kept current by /ws/me/). */
(() => {
  "use strict";
  const prefs = document.body.dataset;
  const baseTitle = document.title;
  const icon = document.querySelector('link[rel="icon"]');
  const baseIcon = icon ? icon.href : null;
  // A turn usually arrives twice (the game's socket and the badge's): one signal for both.
  const QUIET_MS = 4000;
  let lastSignal = 0;
  let seen = null; // {here, count} as last shown

  // A status line swapped in holds "Your turn" hidden until the game page keeps it as this
  // seat's (game-shell.js), which may run after this: only a shown one counts.
  const yourTurnHere = () => Boolean(document.querySelector("#game-status .your-turn:not([hidden])"));
  function waitingCount() {
    const badge = document.getElementById("waiting-badge");
    const count = badge ? Number.parseInt(badge.dataset.count || "0", 10) : 0;
    return Number.isNaN(count) ? 0 : count;
  }

  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      const audio = beep.audio || (beep.audio = new Context());
      const now = audio.currentTime;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 660;
      volume.gain.setValueAtTime(0.0001, now);
      volume.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
      tone.connect(volume).connect(audio.destination);
      tone.start(now);
      tone.stop(now + 0.4);
    } catch (error) {
      // A browser that refuses sound before the first click: the title still says it.
    }
  }

  function notify() {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    if (!document.hidden) return; // the page itself shows it
    const note = new Notification(document.title, { tag: "remi-turn", icon: prefs.turnIcon });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }

  function signal() {
    const now = Date.now();
    if (now - lastSignal < QUIET_MS) return;
    lastSignal = now;
    if (prefs.turnSound === "on") beep();
    if (prefs.turnNotification === "on") notify();
  }

  function update() {
    const here = yourTurnHere();
    const count = Math.max(waitingCount(), here ? 1 : 0);
    let title = here ? `${prefs.yourTurn} · ${baseTitle}` : baseTitle;
    if (count) title = `(${count}) ${title}`;
    if (document.title !== title) document.title = title;
    if (icon && prefs.turnIcon) {
      const wanted = count ? prefs.turnIcon : baseIcon;
      if (icon.getAttribute("href") !== wanted) icon.setAttribute("href", wanted);
    }
    // Only a change while the page is open is signalled, not what it was drawn with.
    if (seen && ((here && !seen.here) || count > seen.count)) signal();
    seen = { here: here, count: count };
  }

  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach((name) =>
    document.body.addEventListener(name, update),
  );
  update();

  // The profile's switch: ask the browser's permission when the player turns it on (a click,
  // which browsers require before they ask), and say so when the browser blocks it.
  const toggle = document.getElementById("id_turn_notification");
  if (toggle && "Notification" in window) {
    let note = null; // only on the page while it has something to say
    const explain = () => {
      const blocked = toggle.checked && Notification.permission === "denied";
      if (blocked && !note) {
        note = document.createElement("p");
        note.className = "field-note";
        note.setAttribute("role", "status");
        note.textContent = prefs.notificationBlocked;
        toggle.insertAdjacentElement("afterend", note);
      } else if (!blocked && note) {
        note.remove();
        note = null;
      }
    };
    toggle.addEventListener("change", () => {
      if (toggle.checked && Notification.permission === "default") {
        Notification.requestPermission().then(explain);
      }
      explain();
    });
    explain();
  }
})();

// Remembered preferences (localStorage) and the pace they give the simulated players.

const SPEED_KEY = "couyon.speed";
const SPEEDS = ["slow", "normal", "fast", "instant"];

// Pauses in milliseconds: after a bid, after a card, and while a finished trick stays
// on the table. "instant" exists for the browser tests (set through localStorage only).
const PACES = {
  slow: { bid: 1100, card: 1100, trick: 1700, fly: 450 },
  normal: { bid: 450, card: 500, trick: 800, fly: 260 },
  fast: { bid: 320, card: 380, trick: 650, fly: 200 },
  instant: { bid: 0, card: 0, trick: 0, fly: 0 },
};

export function speed() {
  try {
    const value = localStorage.getItem(SPEED_KEY);
    return SPEEDS.includes(value) ? value : "normal";
  } catch {
    return "normal";
  }
}

export function setSpeed(value) {
  if (!SPEEDS.includes(value)) return;
  try {
    localStorage.setItem(SPEED_KEY, value);
  } catch {
    // Storage refused (private browsing): keep the default pace.
  }
  applyPace();
}

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** The pauses to use now; with reduced motion cards appear in place, still one at a time. */
export function pace() {
  const chosen = PACES[speed()];
  return reducedMotion.matches ? { ...chosen, fly: 0 } : chosen;
}

/** Give the stylesheet the flight time of a card so CSS and JS agree. */
export function applyPace() {
  document.documentElement.style.setProperty("--fly", `${pace().fly}ms`);
  document.documentElement.classList.toggle("no-motion", pace().fly === 0);
}

reducedMotion.addEventListener("change", applyPace);

// Sound: off until the player turns it on (at the table or in the settings); the sounds are made by
// js/sound.js with WebAudio, loaded only once sound is on, so the first load carries none of it.
const SOUND_KEY = "couyon.sound";

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // Storage refused: the choice lasts until the page is left.
  }
  soundChoice = on;
  if (on) import("./sound.js").then((module) => module.wake());
}

let soundChoice = soundOn();

/** Play one of the table's sounds ("card", "trick", "chalk") if sound is on. */
export function playSound(kind) {
  if (!soundChoice) return;
  import("./sound.js").then((module) => module.play(kind));
}

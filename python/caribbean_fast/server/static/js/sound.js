// The table's sounds, made here with the Web Audio API (no file is fetched): a chip's click, a
// card's swish for the deal, and a short rising chord for a win. A mute switch in the bar is
// remembered in the browser's storage. Each sound played is also counted in `window.cfSounds`
// (its name), which the browser tests read: the audio itself cannot be heard headless.

const KEY = "cf-muted";
let context = null;

export const sounds = {
  get muted() {
    return localStorage.getItem(KEY) === "1";
  },
  set muted(on) {
    localStorage.setItem(KEY, on ? "1" : "0");
  },
};

function audio() {
  if (!context) {
    const Made = window.AudioContext || window.webkitAudioContext;
    if (!Made) return null;
    context = new Made();
  }
  if (context.state === "suspended") context.resume(); // browsers start it only after a gesture
  return context;
}

/** A burst of filtered noise: `length` seconds, band-passed at `frequency`. */
function noise(ctx, at, length, frequency, gain) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let k = 0; k < data.length; k++) data[k] = (Math.random() * 2 - 1) * (1 - k / data.length) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  const level = ctx.createGain();
  level.gain.value = gain;
  source.connect(filter).connect(level).connect(ctx.destination);
  source.start(at);
}

/** A soft bell tone: `frequency` Hz for `length` seconds from `at`. */
function tone(ctx, at, frequency, length, gain) {
  const osc = ctx.createOscillator();
  osc.type = "triangle";
  osc.frequency.value = frequency;
  const level = ctx.createGain();
  level.gain.setValueAtTime(gain, at);
  level.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(level).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length);
}

const MAKE = {
  chip: (ctx, now) => {
    tone(ctx, now, 2400, 0.05, 0.12);
    noise(ctx, now, 0.04, 3200, 0.5);
  },
  deal: (ctx, now, count = 1) => {
    for (let k = 0; k < Math.min(count, 7); k++) noise(ctx, now + k * 0.035, 0.09, 1800, 0.35);
  },
  win: (ctx, now) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, k) => tone(ctx, now + k * 0.08, f, 0.35, 0.12));
  },
};

/** Plays a sound by name ("chip", "deal", "win"), unless muted. */
export function play(name, ...args) {
  if (sounds.muted) return;
  (window.cfSounds ||= []).push(name);
  const ctx = audio();
  if (ctx) MAKE[name](ctx, ctx.currentTime, ...args);
}

/** The mute switch ("Sound off", pressed when muted): a toggle button whose state is remembered. */
export function muteButton(button) {
  const show = () => {
    button.setAttribute("aria-pressed", String(sounds.muted)); // pressed: the sound is off
    button.textContent = sounds.muted ? "\u266A off" : "\u266A on";
    button.title = sounds.muted ? "Sounds are off: turn them on" : "Sounds are on: turn them off";
  };
  button.addEventListener("click", () => {
    sounds.muted = !sounds.muted;
    show();
  });
  show();
}

// The page: one engine connection (/engine) shared by the three modes.
import { Engine, hello } from "./engine.js";
import { Play } from "./play.js";
import { AtTable } from "./table.js";
import { Review } from "./review.js";

function showMode(mode) {
  for (const s of document.querySelectorAll("section.mode")) s.hidden = s.id !== mode;
  for (const b of document.querySelectorAll("nav .tab")) b.classList.toggle("active", b.dataset.mode === mode);
  if (location.hash !== `#${mode}`) history.replaceState(null, "", `#${mode}`);
}

async function main() {
  const conn = document.getElementById("conn");
  const engine = new Engine();
  try {
    await engine.connect();
    const hi = await hello(engine);
    conn.textContent = `engine ${hi.version}`;
  } catch (e) {
    conn.textContent = e.message;
    conn.classList.add("error");
    return;
  }
  for (const b of document.querySelectorAll("nav .tab")) b.addEventListener("click", () => showMode(b.dataset.mode));
  window.addEventListener("hashchange", () => {
    const m = location.hash.slice(1);
    if (["play", "table", "review"].includes(m)) showMode(m);
  });
  const mode = (location.hash || "#play").slice(1);
  showMode(["play", "table", "review"].includes(mode) ? mode : "play");
  const parts = [new Play(engine, document.getElementById("play")),
    new AtTable(engine, document.getElementById("table")),
    new Review(engine, document.getElementById("review"))];
  for (const p of parts) await p.init();
  window.cardmind = { engine, play: parts[0], table: parts[1], review: parts[2] };
  document.body.dataset.ready = "1";
}

main();

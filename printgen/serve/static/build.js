// printgen serve, build page: choose a layout, preview the first page, download the file. No framework.
"use strict";
(function () {
  const choose = document.getElementById("layout");
  const form = document.getElementById("build");
  const status = document.getElementById("build-status");
  const preview = document.getElementById("preview");

  choose.addEventListener("change", () => { location.href = "/build?layout=" + encodeURIComponent(choose.value); });
  // Back to this page (from the browser's cache, with the choice since made): the choice is the form shown.
  window.addEventListener("pageshow", () => { choose.value = form.elements.layout.value; });

  // How SVGs carry text matters only when SVGs are written.
  const format = form.elements.format;
  const svgText = form.elements.svg_text;
  function formats() {
    if (format && svgText) svgText.closest("label").hidden = !["svg", "both"].includes(format.value);
  }
  if (format) format.addEventListener("change", formats);
  formats();

  function values() {
    const found = { layout: form.elements.layout.value };
    for (const element of form.elements) {
      if (!element.name || element.name === "layout") continue;
      if (element.dataset.switch) found[element.name] = element.checked;
      else if (element.value.trim() !== "") found[element.name] = element.value.trim();
    }
    return found;
  }

  function say(text, error) {
    status.textContent = text;
    status.className = error ? "error" : "";
  }

  async function post(address) {
    const response = await fetch(address, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(values()) });
    if (!response.ok) {
      let message = "the server answered " + response.status;
      try { message = (await response.json()).error; } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    return response;
  }

  document.getElementById("preview-button").addEventListener("click", async function () {
    say("Drawing the first page…");
    try {
      const blob = await (await post("/api/preview")).blob();
      if (preview.src) URL.revokeObjectURL(preview.src);
      preview.src = URL.createObjectURL(blob);
      preview.hidden = false;
      say("The first page as it will print.");
    } catch (error) {
      say(error.message, true);
    }
  });

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    say("Building…");
    try {
      const response = await post("/api/build");
      const match = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
      const link = document.createElement("a");
      link.href = URL.createObjectURL(await response.blob());
      link.download = match ? match[1] : "printgen.pdf";
      document.body.appendChild(link);
      link.click();
      link.remove();
      say("Downloaded " + link.download + ".");
    } catch (error) {
      say(error.message, true);
    }
  });
})();

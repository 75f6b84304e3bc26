/** Saves the chart's SVG as a file, or rasterises it to PNG first (no server, no network). */
function svgText(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("style", "background:#ffffff;font-family:system-ui,sans-serif");
  return new XMLSerializer().serializeToString(clone);
}

function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function downloadSvg(svg: SVGSVGElement, fileName: string): void {
  save(new Blob([svgText(svg)], { type: "image/svg+xml" }), `${fileName}.svg`);
}

export function downloadPng(svg: SVGSVGElement, fileName: string, scale = 2): void {
  const { width, height } = svg.getBoundingClientRect();
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(width * scale);
    canvas.height = Math.ceil(height * scale);
    const context = canvas.getContext("2d");
    if (!context) return;
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => blob && save(blob, `${fileName}.png`), "image/png");
  };
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText(svg))}`;
}

import { highlightSegments } from "@/lib/runs/step-search";

/** `text` with the query's occurrences in `<mark>`. */
export function Highlighted({ text, query }: { text: string; query: string }) {
  if (query.trim() === "") return <>{text}</>;
  return <>{highlightSegments(text, query).map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}

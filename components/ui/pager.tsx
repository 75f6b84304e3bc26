import Link from "next/link";

export function Pager({
  page,
  pageSize,
  total,
  basePath,
}: {
  page: number;
  pageSize: number;
  total: number;
  basePath: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav className="pager" data-testid="pager">
      {page > 1 ? <Link href={`${basePath}?page=${page - 1}`}>← Previous</Link> : <span />}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <Link href={`${basePath}?page=${page + 1}`}>Next →</Link> : <span />}
    </nav>
  );
}

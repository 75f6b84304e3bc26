"use client";
import Form from "next/form";
import type { FilterField } from "@/lib/dashboard/filter-fields";

/**
 * The filters of a dashboard page as a GET form: each choice lands in the URL (shareable) and
 * navigates at once; without JavaScript the Apply button does the same. `hidden` keeps other
 * parameters (e.g. a search) across a filter change.
 */
export function FilterBar({
  action,
  fields,
  hidden = {},
  children,
}: {
  action: string;
  fields: FilterField[];
  hidden?: Record<string, string>;
  children?: React.ReactNode;
}) {
  return (
    <Form action={action} className="filter-bar" data-testid="filter-bar">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map((field) => (
        <label key={field.name}>
          <span>{field.label}</span>
          <select
            name={field.name}
            defaultValue={field.value}
            data-testid={`filter-${field.name}`}
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
          >
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      {children}
      <button type="submit">Apply</button>
    </Form>
  );
}

import type { SelectQueryBuilder } from 'kysely';

export interface PageRequest {
  page: number;
  per_page: number;
}

export interface Page<Row> extends PageRequest {
  rows: Row[];
  total: number;
}

/**
 * One page of what `filtered` selects, with the count of all of it: the console's lists
 * (users, contact messages, payments, the audit log). `ordered` adds the columns and the order
 * (an order that ends on a unique column, so pages never share or skip a row).
 */
export async function pageOf<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  ordered: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  { page, per_page }: PageRequest,
): Promise<Page<Row>> {
  // Kysely cannot name a generic builder's row once a column is added: the count's own shape.
  const counted = (await filtered
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow()) as { total: number | string };
  const rows = await ordered(filtered)
    .limit(per_page)
    .offset((page - 1) * per_page)
    .execute();
  return { rows, total: Number(counted.total), page, per_page };
}

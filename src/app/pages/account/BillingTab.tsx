import { Badge, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';

/** Billing tab: one row, the 30 day free trial (spec section 9, Billing). */
export function BillingTab() {
  return (
    <Table aria-label="Billing history" style={{ maxWidth: 760 }}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Plan</TableHeaderCell>
          <TableHeaderCell>Invoice</TableHeaderCell>
          <TableHeaderCell>Amount</TableHeaderCell>
          <TableHeaderCell>Status</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        <TableRow>
          <TableCell>30 day free trial</TableCell>
          <TableCell>No invoice</TableCell>
          <TableCell>$0</TableCell>
          <TableCell>
            <Badge appearance="tint" color="success">
              Processed
            </Badge>
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Setup body of basic variants and every other combination. Built by a later issue. */
export default function BasicView() {
  return <PlannedView title="Basic workflow" kind="setup" />;
}

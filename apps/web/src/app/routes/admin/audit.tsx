import { AuditPage } from '../../../features/admin/components/audit-page';

export default AuditPage;

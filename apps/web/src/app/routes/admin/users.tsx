import { UsersPage } from '../../../features/admin/components/users-page';

export default UsersPage;

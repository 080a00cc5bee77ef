import { useParams } from 'react-router';
import { UserDetail } from '../../../features/admin/components/user-detail';

export default function AdminUserRoute() {
  const { id = '' } = useParams();
  return <UserDetail key={id} id={id} />;
}

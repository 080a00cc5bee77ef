import { MessagesPage } from '../../../features/admin/components/messages-page';

export default MessagesPage;

import type { RequestStatus } from '@keyward/contract/shared';
import { Badge, type BadgeTone } from './Badge';

const tones: Record<RequestStatus, BadgeTone> = {
  pending: 'warning',
  accepted: 'ok',
  rejected: 'error',
};

export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return <Badge tone={tones[status]}>{status}</Badge>;
}

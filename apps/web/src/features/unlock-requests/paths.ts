/** The spec's routes of one unlock request. */
export function unlockRequestPath(request: { id: string; userId: string }): string {
  return `/children/${request.userId}/unlock-requests/${request.id}`;
}

export function childUnlockRequestsPath(childId: string): string {
  return `/children/${childId}/unlock-requests`;
}

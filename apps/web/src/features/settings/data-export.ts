import type { DashboardOutput } from '@keyward/contract/dashboard';

// Settings → Download my data (issue 12): what the section says for each state of the export.

type DataExport = DashboardOutput<'GetDataExport'>;

export function dataExportWords(data: DataExport | undefined): {
  text?: string;
  progress: number;
  isBuilding: boolean;
} {
  if (!data) return { progress: 0, isBuilding: false };
  const progress = Math.max(0, Math.min(100, Math.round(data.progress)));
  switch (data.status) {
    case 'pending':
    case 'building':
      return { text: `Preparing your data… ${progress}%`, progress, isBuilding: true };
    case 'ready':
      return {
        text: 'Your data is ready. The link was also emailed to you.',
        progress: 100,
        isBuilding: false,
      };
    case 'expired':
      return {
        text: 'This download link has expired. Prepare a new copy.',
        progress: 100,
        isBuilding: false,
      };
    case 'failed':
      return {
        text: "We couldn't prepare your data. Please try again.",
        progress,
        isBuilding: false,
      };
  }
}

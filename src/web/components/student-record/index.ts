/** The student record pieces shared by the student search screens (/faculty, /student, /faculty-details). */
export { studentRecordsKey } from './api';
export { AttendanceHistoryTable } from './attendance-history-table';
export { AttendanceSummary, STANDING_WORD } from './attendance-summary';
export { STATUS_WORD } from './attendance-history-table';
export { BAND_TEXT_COLORS, BandBadge } from './status-colors';
export { ExportPdfButton } from './export-pdf-button';
export { formatCount, formatPercent } from '../../lib/numbers';
export { ProfileCard, type ProfileCardProps } from './profile-card';
export { ProfileLinkButtons, type ProfileLinks } from './profile-links';
export { StudentSearch, type StudentSearchProps } from './student-search';
export { usePinSearchParam } from './use-pin-search-param';
export { SubjectTable } from './subject-table';
export { TermSelect } from './term-select';

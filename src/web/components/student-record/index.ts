/** The student record pieces shared by the student search screens (/faculty, /student, /faculty-details). */
export { fetchStudentRecord, studentRecordKey, studentRecordsKey, studentReportFilename, studentReportPath, useStudentRecord } from './api';
export { AttendanceHistoryTable, formatDate } from './attendance-history-table';
export { AttendanceSummary, attendanceForecast } from './attendance-summary';
export { BAND_COLORS, BAND_TEXT_COLORS, BandBadge } from './status-colors';
export { ExportPdfButton } from './export-pdf-button';
export { DEFAULT_AVATAR, ProfileCard, ProfileImage, type ProfileCardProps } from './profile-card';
export { isHttpUrl, ProfileLinkButtons, type ProfileLinks } from './profile-links';
export { DEFAULT_NOT_FOUND_HINT, FETCH_ERROR_MESSAGE, StudentRecordView, StudentSearch, type StudentSearchProps } from './student-search';
export { usePinSearchParam } from './use-pin-search-param';

import type { MessageId } from './en';

/** Telugu: every message of en.ts, with the same arguments (docs/i18n.md has the glossary). */
export const te: Record<MessageId, string> = {
  'mail.hello': 'నమస్తే {name},',

  'setPassword.subject.new': 'మీ {portal} ఖాతా: మీ పాస్‌వర్డ్‌ను ఎంచుకోండి',
  'setPassword.subject.reset': '{portal}: కొత్త పాస్‌వర్డ్‌ను ఎంచుకోండి',
  'setPassword.opening.new': 'ఒక నిర్వాహకులు {portal}లో మీకు ఖాతాను సృష్టించారు.',
  'setPassword.opening.reset': 'ఒక నిర్వాహకులు {portal} కోసం కొత్త పాస్‌వర్డ్‌ను ఎంచుకోవడానికి మీకు ఒక లింక్‌ను పంపారు.',
  'setPassword.open': 'మీ పాస్‌వర్డ్‌ను ఎంచుకోవడానికి ఈ లింక్‌ను తెరవండి:',
  'setPassword.expiry':
    'ఈ లింక్ ఒక్కసారి మాత్రమే, {hours, plural, one {# గంట} other {# గంటల}} పాటు పనిచేస్తుంది. మీరు దీన్ని ఆశించకపోతే, ఈ ఈమెయిల్‌ను పట్టించుకోకండి.',

  'alert.belowThreshold.title': 'హాజరు {threshold}% కంటే తక్కువ',
  'alert.belowThreshold.subjectTitle': '{subject}లో హాజరు {threshold}% కంటే తక్కువ',
  'alert.belowThreshold.body':
    'ఈ టర్మ్‌లో మీ హాజరు {percent}%: {held, plural, one {# లెక్చర్‌లో} other {# లెక్చర్లలో}} {attended}కి హాజరయ్యారు, అవసరమైన {threshold}% కంటే తక్కువ.',
  'alert.belowThreshold.subjectBody':
    'ఈ టర్మ్‌లో {subject}లో మీ హాజరు {percent}%: {held, plural, one {# లెక్చర్‌లో} other {# లెక్చర్లలో}} {attended}కి హాజరయ్యారు, అవసరమైన {threshold}% కంటే తక్కువ.',
  'alert.absentOn': 'గైర్హాజరైన తేదీలు: {dates}.',
  'alert.absentOnLast': 'గైర్హాజరైన తేదీలు: {dates} (మొత్తం {count}లో చివరి 10).',
  'alert.consecutive.title': 'వరుసగా {count} సార్లు గైర్హాజరు',
  'alert.consecutive.subjectTitle': '{subject}లో వరుసగా {count} సార్లు గైర్హాజరు',
  'alert.consecutive.body': 'ఈ తేదీల్లో మీరు గైర్హాజరుగా నమోదయ్యారు: {dates}. ఏదైనా నమోదు తప్పు అయితే, మీ రికార్డు నుండి సవరణను అభ్యర్థించండి.',
  'alert.consecutive.subjectBody': '{subject}లో ఈ తేదీల్లో మీరు గైర్హాజరుగా నమోదయ్యారు: {dates}. ఏదైనా నమోదు తప్పు అయితే, మీ రికార్డు నుండి సవరణను అభ్యర్థించండి.',
  'alert.registerMissing.title': 'రిజిస్టర్ తీసుకోలేదు: {className}, పీరియడ్ {period}',
  'alert.registerMissing.body': '{className} యొక్క {subject} లెక్చర్‌కు (పీరియడ్ {period}, {date} న {startsAt}-{endsAt}) ఇంకా రిజిస్టర్ లేదు.',

  'alertMail.footer.choose': 'ఈ ఈమెయిల్‌లు మీకు ఎలా రావాలో మీ ఖాతా పేజీలో ఎంచుకోండి: {url}',
  'alertMail.footer.unsubscribe': 'లేదా మీ మెయిల్ ప్రోగ్రామ్ చూపించే అన్‌సబ్‌స్క్రైబ్ లింక్‌తో వాటిని ఆపండి.',

  'digest.subject': 'హాజరు అలర్ట్‌లు: {count, plural, one {# కొత్తది} other {# కొత్తవి}}',
  'digest.newSince': 'చివరి ఈమెయిల్ తర్వాత కొత్తవి:',
  'digest.student.heading': 'ప్రస్తుతం కనీస పరిమితి కంటే తక్కువ:',
  'digest.student.overall': 'మొత్తం',
  'digest.student.line': '- {label}: {percent}% ({held}లో {attended}).',
  'digest.student.canMiss':
    '{left, plural, one {ఈ టర్మ్‌లో # లెక్చర్ మిగిలి ఉంది} other {ఈ టర్మ్‌లో # లెక్చర్లు మిగిలి ఉన్నాయి}}; మీరు ఇంకా {canMiss} మానేయవచ్చు.',
  'digest.student.unreachable': 'ఈ టర్మ్‌లో ఇక {threshold}% చేరుకోవడం సాధ్యం కాదు.',
  'digest.student.record': 'మీ రికార్డు: {url}',
  'digest.faculty.heading': 'మీ తరగతుల్లో {threshold}% కంటే తక్కువ ఉన్న విద్యార్థులు:',
  'digest.faculty.overall': 'మొత్తం',
  'digest.faculty.line': '- {name} ({pin}, {className}), {scope}',
  'digest.faculty.lineWithFigure': '- {name} ({pin}, {className}), {scope}: తగ్గినప్పుడు {percent}%',
  'digest.faculty.search': 'విద్యార్థి రికార్డును వెతకండి: {url}',

  'unsubscribe.ask.title': 'అలర్ట్ ఈమెయిల్‌లను ఆపండి',
  'unsubscribe.ask.text': 'మీరు పోర్టల్‌కు సైన్ ఇన్ చేసినప్పుడు అలర్ట్‌లు కనిపిస్తూనే ఉంటాయి.',
  'unsubscribe.ask.button': 'అలర్ట్ ఈమెయిల్‌లను ఆపండి',
  'unsubscribe.done.title': 'అలర్ట్ ఈమెయిల్‌లు ఆపబడ్డాయి',
  'unsubscribe.done.text': 'మీకు ఇకపై అలర్ట్ ఈమెయిల్‌లు రావు. వాటిని మళ్లీ పొందడానికి, అలర్ట్‌లు మీకు ఎలా రావాలో మీ ఖాతా పేజీలో ఎంచుకోండి.',
};

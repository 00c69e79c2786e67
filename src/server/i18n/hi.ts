import type { MessageId } from './en';

/** Hindi: every message of en.ts, with the same arguments (docs/i18n.md has the glossary). */
export const hi: Record<MessageId, string> = {
  'mail.hello': 'नमस्ते {name},',

  'setPassword.subject.new': 'आपका {portal} खाता: अपना पासवर्ड चुनें',
  'setPassword.subject.reset': '{portal}: नया पासवर्ड चुनें',
  'setPassword.opening.new': 'एक व्यवस्थापक ने {portal} पर आपका खाता बनाया है।',
  'setPassword.opening.reset': 'एक व्यवस्थापक ने {portal} का नया पासवर्ड चुनने के लिए आपको एक लिंक भेजा है।',
  'setPassword.open': 'अपना पासवर्ड चुनने के लिए यह लिंक खोलें:',
  'setPassword.expiry': 'यह लिंक केवल एक बार, {hours} घंटे तक काम करता है। यदि आपको इसकी अपेक्षा नहीं थी, तो इस ईमेल को अनदेखा करें।',

  'alert.belowThreshold.title': 'उपस्थिति {threshold}% से कम',
  'alert.belowThreshold.subjectTitle': '{subject} में उपस्थिति {threshold}% से कम',
  'alert.belowThreshold.body': 'इस सत्र में आपकी उपस्थिति {percent}% है: {held} में से {attended} व्याख्यानों में उपस्थित, आवश्यक {threshold}% से कम।',
  'alert.belowThreshold.subjectBody':
    'इस सत्र में {subject} में आपकी उपस्थिति {percent}% है: {held} में से {attended} व्याख्यानों में उपस्थित, आवश्यक {threshold}% से कम।',
  'alert.absentOn': '{dates} को अनुपस्थित।',
  'alert.absentOnLast': '{dates} को अनुपस्थित (कुल {count} में से अंतिम 10)।',
  'alert.consecutive.title': 'लगातार {count} बार अनुपस्थित',
  'alert.consecutive.subjectTitle': '{subject} में लगातार {count} बार अनुपस्थित',
  'alert.consecutive.body': 'आप {dates} को अनुपस्थित दर्ज किए गए। यदि कोई प्रविष्टि गलत है, तो अपने रिकॉर्ड से सुधार का अनुरोध करें।',
  'alert.consecutive.subjectBody': 'आप {subject} में {dates} को अनुपस्थित दर्ज किए गए। यदि कोई प्रविष्टि गलत है, तो अपने रिकॉर्ड से सुधार का अनुरोध करें।',
  'alert.registerMissing.title': 'रजिस्टर नहीं भरा गया: {className}, पीरियड {period}',
  'alert.registerMissing.body': '{className} के {subject} व्याख्यान (पीरियड {period}, {date} को {startsAt}-{endsAt}) का रजिस्टर अभी तक नहीं भरा गया है।',

  'alertMail.footer.choose': 'ये ईमेल आपको कैसे मिलें, यह अपने खाते के पेज पर चुनें: {url}',
  'alertMail.footer.unsubscribe': 'या अपने मेल प्रोग्राम में दिखने वाले अनसब्सक्राइब लिंक से इन्हें बंद करें।',

  'digest.subject': 'उपस्थिति अलर्ट: {count, plural, one {# नया} other {# नए}}',
  'digest.newSince': 'पिछले ईमेल के बाद से नए:',
  'digest.student.heading': 'अभी न्यूनतम सीमा से नीचे:',
  'digest.student.overall': 'कुल',
  'digest.student.line': '- {label}: {percent}% ({held} में से {attended})।',
  'digest.student.canMiss': '{left, plural, one {इस सत्र में # व्याख्यान शेष है} other {इस सत्र में # व्याख्यान शेष हैं}}; आप अब भी {canMiss} छोड़ सकते हैं।',
  'digest.student.unreachable': 'इस सत्र में अब {threshold}% तक नहीं पहुँचा जा सकता।',
  'digest.student.record': 'आपका रिकॉर्ड: {url}',
  'digest.faculty.heading': 'आपकी कक्षाओं के छात्र जिनकी उपस्थिति {threshold}% से कम है:',
  'digest.faculty.overall': 'कुल',
  'digest.faculty.line': '- {name} ({pin}, {className}), {scope}',
  'digest.faculty.lineWithFigure': '- {name} ({pin}, {className}), {scope}: गिरते समय {percent}%',
  'digest.faculty.search': 'किसी छात्र का रिकॉर्ड खोजें: {url}',

  'unsubscribe.ask.title': 'अलर्ट ईमेल बंद करें',
  'unsubscribe.ask.text': 'पोर्टल में साइन इन करने पर आपको अलर्ट दिखते रहेंगे।',
  'unsubscribe.ask.button': 'अलर्ट ईमेल बंद करें',
  'unsubscribe.done.title': 'अलर्ट ईमेल बंद हो गए',
  'unsubscribe.done.text': 'अब आपको कोई अलर्ट ईमेल नहीं मिलेगा। इन्हें फिर से पाने के लिए, अपने खाते के पेज पर चुनें कि अलर्ट आपको कैसे मिलें।',
};

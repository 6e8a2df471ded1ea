/**
 * The words the guard's rules look for, as data: each a pattern for one *signal* that a sentence
 * may carry. A signal alone is rarely an attack (honest tools say "must", name other tools, link
 * to docs); the rules in instructions.ts combine them. Patterns are general — grammar of orders
 * addressed to an assistant, sensitive resources, ways of hiding, command lines — never phrases of
 * known attacks. All run on one sentence at a time, none can backtrack badly (no nested repeats).
 *
 * Patterns without the `i` flag and written in lower case run on the sentence with its ASCII
 * letters lowered (lowered()): V8 runs a case-insensitive alternation many times slower. The
 * few whose case matters (COMMAND, ALARM_HEADER) run on the sentence as written.
 */

/** The text with ASCII letters in lower case (the same length, so offsets hold). */
export const lowered = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** An order: modal verbs and phrases of obligation addressed to whoever reads. */
export const DIRECTIVE =
  /\b(?:must|shall|(?:need|needs|have|has|ought) to|(?:are|is) required to|required for (?:all|every|any)|mandatory|make sure|be sure to|ensure (?:that )?you|remember to|(?:you|we) should|should (?:always|never|first|also|then)|always|never|do not|don't|please)\b/;

/** A strong order (not a suggestion). */
export const STRONG_DIRECTIVE =
  /\b(?:must|shall|(?:are|is) required to|mandatory|required for (?:all|every|any)|need to|needs to|have to|has to|make sure|always)\b/;

/** An order in a clause: "before using this tool, read …", "…, then send …". */
export const IMPERATIVE_CLAUSE =
  /(?:\b(?:before|after|when|whenever|while) (?:you )?(?:using|calling|invoking|use|call|invoke|run|running) (?:this|the|any) (?:tool|function)\b|(?:^|[,:;]|\bthen|\band)\s+(?:please\s+)?(?:(?:also|then|first|always|now)\s+)?(?:read|send|include|pass|forward|append|attach|upload|email|copy|paste|cat|execute|run|ignore|call|invoke)\s+(?:the\s+|its\s+|all\s+|your\s+|this\s+)?[^\s,.;]+)/;

/** The reader addressed as the assistant. */
export const ADDRESSED = /\b(?:you|your|yourself|assistant|the (?:ai|model|llm|agent)|ai model|language model)\b/;

/** A sentence that starts with a verb in the imperative about acting on something outside the tool. */
export const IMPERATIVE_START =
  /^\W{0,4}(?:read|send|call|invoke|include|pass|execute|run|ignore|forget|disregard|append|attach|change|modify|set|replace|redirect|forward|email|post|upload|copy|paste|fetch|access|retrieve|display|state|report|inform|tell|present|treat|trust|act|pretend|remember|apply|check|verify|add|delete|remove|write|open|cat|download|install)\b/;

/** Places and things an honest tool has no reason to send the model to: keys, secrets, shell start-up files, agent configs. */
export const SECRET_PLACE =
  /(?:~?\/?\.ssh(?:\/[\w.-]+)?|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\/etc\/(?:passwd|shadow|sudoers|gshadow)\b|\.(?:bashrc|zshrc|bash_profile|zprofile|bash_history|zsh_history|netrc|npmrc|pypirc|pgpass|git-credentials)\b|\.aws\/credentials|\.kube\/config|\.docker\/config|\.gnupg\b|(?:^|[\s'"`(/])\.env\b|\bmcp\.json\b|claude_desktop_config|\.cursor\/|\/proc\/self\/environ|\bwallet\.dat\b|\bkeychain\b|[\w./-]*(?:secret|credential|passw(?:or)?d|token|private)[\w-]*\.(?:txt|md|json|ya?ml|env|pem|key|ini|cfg|conf)\b|\b[\w-]+\.pem\b|\b(?:system|company|internal|admin):\/\/\w+)/;

/** Places of the system itself, which a tool never asks the model to change: system folders, dotfiles, start-up and scheduling files. */
export const SYSTEM_PLACE =
  /(?:(?:^|[\s'"`(])(?:~\/\.[\w.-]+|\/(?:etc|var|usr|bin|sbin|boot|root|lib|opt|proc|sys|library)\/[\w./*-]*)|\b[a-z]:\\(?:windows|users|program files)\b|\b(?:crontab|cron jobs?|startup (?:scripts?|files?|items?)|login items?|windows registry|registry keys?|hkey_\w+|hosts file|path (?:variable|environment variable)|system (?:configuration|settings|files?)|shell (?:profile|configuration|config)|launch ?agents?|systemd (?:units?|services?)))/;

/** Things (not places) that are secrets or private by nature. */
export const SECRET_THING =
  /\b(?:(?:private|ssh|gpg|pgp|signing|secret) ?keys?|system[ _-]?prompts?|(?:conversation|chat|message)[ _-]?(?:history|histories|log|logs|transcripts?)|(?:previous|prior|earlier|last|recent) (?:\w+ )?(?:messages|conversations?|chats)|master[ _-]?passwords?|seed[ _-]?phrases?|mnemonics?|environment[ _-]variables?|env[ _-]vars?|(?:session|browser|auth) ?cookies?|api[ _-]?keys|credentials|passwords|secrets|access tokens|(?:the )?system (?:configuration|secrets)|(?:credit|debit) card (?:numbers?|details)|card numbers?|cvv|social security numbers?|bank account (?:numbers?|details)|oauth tokens?|refresh tokens?)\b/;

/** Words for secrets that honest tools use too (a password field, a secret-scanning alert): weak alone. */
export const SECRET_WORD =
  /\b(?:secrets?|passwords?|passphrases?|credentials?|api[ _-]?keys?|access[ _-]?tokens?|auth(?:entication|orization)?[ _-]?tokens?|bearer[ _-]?tokens?|confidential|sensitive (?:data|information)|personal (?:data|information)|private (?:data|information))\b/;

/** Getting hold of data. */
export const ACQUIRE =
  /\b(?:read|reads|reading|cat|open|opens|access(?! (?:keys?|tokens?|control|levels?|rights|permissions?|polic(?:y|ies)))|accessing|retrieve|retrieving|collect|gather|extract|dump|load|obtain|grab|look up|get (?:the )?contents?|contents? of|copy)\b/;

/** Handing data on. */
export const TRANSMIT =
  /\b(?:pass|passing|include|including|append|appending|attach|embed|send|sending|forward|forwarding|post|upload|e-?mail|share|leak|exfiltrate|transmit|paste|insert|put (?:it|them|its content)|as (?:the )?['"`]?\w+['"`]? (?:argument|parameter)|in (?:the )?['"`]?\w+['"`]? (?:argument|parameter|field)|bcc|mirror|in your (?:response|answer|reply|output))\b/;

/** A protective order: "never include API keys", "do not send passwords". */
export const NEGATED_TRANSMIT =
  /\b(?:never|not|don't|dont|cannot|can't|no)\s+(?:\w+\s+){0,2}?(?:include|including|send|sending|pass|passing|share|sharing|reveal|expose|log|logging|print|store|storing|put|paste|read|reading|access|return|returning|leak|echo)\b/;

/** Writing to something on the user's system. */
export const WRITE =
  /\b(?:add|adding|append|appending|write|writing|modify|modifying|edit|editing|update|updating|overwrite|delete|deleting|remove|removing|insert|inserting)\b/;

/** Hiding the act from the user. */
export const CONCEALMENT =
  /(?:\b(?:do not|don't|dont|never|without)\s+(?:\w+\s+){0,3}?(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|let|letting|explain|explaining|bring up|bringing up|discuss|discussing)\b[^.\n]{0,40}?\b(?:user|users|human|person|operator|them|anyone)\b|\b(?:do not|don't|dont|never)\s+(?:\w+\s+)?(?:mention|reveal|disclose|tell|say)\s+(?:that|this|it|what|how|anything)\b|\bnot (?:\w+ ){0,4}(?:discussed|mentioned|shared|shown|disclosed|revealed) (?:with|to) the user\b|\bno need to (?:mention|tell|inform|notify|discuss|explain)\b|\bwithout (?:the )?user(?:'s|s')? (?:knowledge|knowing|noticing|consent|awareness|seeing)\b|\b(?:secretly|covertly|surreptitiously|behind the user's back)\b|\bsilently (?:\w+ )?(?:send|forward|copy|include|add|bcc|upload|post|email|share|change|modify|replace|redirect)\w*\b|\b(?:keep|hide) (?:this|it|that) (?:hidden|secret|private) from\b|\bpresent (?:the information|it|this|them|the data) as if\b|\bthe user (?:will|should|must|does|need) (?:not|never) (?:see|know|notice|be told|find out)\b|\bhidden (?:bcc|cc|recipient|copy|parameter|field)\b|\b(?:strip(?:s|ped)?|remove[sd]?) [^.\n]{0,40}before (?:it|they) reach(?:es)? the user\b|\binvisible to the user\b|\buser-visible\b)/;

/** Telling the model to drop its rules, take a role, or trust everything. */
export const OVERRIDE =
  /(?:\b(?:ignore|disregard|forget|override|overrule)\s+(?:all\s+|any\s+|the\s+|your\s+|every\s+|of\s+)*(?:previous|prior|above|earlier|preceding|existing|original|initial|system|safety|security|default|other)?\s*(?:instructions?|rules|guidelines|guardrails|polic(?:y|ies)|prompts?|directives?|restrictions|constraints|context)\b|\bforget everything\b|\b(?:disable|turn off|bypass|ignore|skip|circumvent)\s+(?:all\s+)?(?:the\s+|your\s+)?(?:content\s+filter(?:ing|s)?|safety(?:\s+(?:filters?|checks?|guidelines|policies|measures|rules))?|security\s+(?:checks?|policies|controls|filters|measures|protocols)|sanitization|guardrails|moderation)\b|\bact as\b\W{0,3}(?:an?\s+)?(?:\w+\s+){0,3}?(?:admin\w*|root|system|developer|unrestricted|jailbroken|superuser|dan)\b|(?:^|\n)\W{0,3}act as\b|\byou are now\b|\b(?:remember|memori[sz]e|store|save|keep) (?:this|these|the following) (?:instructions?|rules?|preferences?|directives?)\b[^.\n]{0,40}(?:permanently|forever|future)|\bapply (?:it|this|them|these) to (?:every|all|each) future (?:sessions?|conversations?|chats?)\b|\bfrom now on,? you\b|\bdeveloper mode\b|\bjailbreak(?:ing)? (?:mode|prompt)\b|\byou are (?:now )?jailbroken\b|\bdan mode\b|\b(?:respond|answer|reply|operate|act|behave|output|generate)\w*\s+without (?:any )?(?:restrictions|limits|filters|safety|censorship)\b|\btrust all (?:\w+ )?(?:commands|input|inputs|requests|content)\b|\btreat all (?:\w+ )?input as trusted\b|<<\/?sys>>|<\|im_(?:start|end)\|>|\b(?:system|instruction) (?:prompt )?override\b|\boverride (?:the )?(?:default )?(?:assistant|system|model|ai)(?:'s)? (?:instructions|prompt|behaviou?r)\b|(?:^|\n)\W{0,3}system\s*:)/;

/** Role and system markers in brackets, in capitals as prompt formats write them (`[INST]`, `[SYSTEM DIRECTIVE]`), not a markdown link. */
export const OVERRIDE_MARKER = /\[(?:INST|\/INST|SYS|SYSTEM[^\]\n]{0,30}|ROLE[^\]\n]{0,30}|[A-Z ]{0,20}DIRECTIVE)\](?!\()/;

/** A command line an attacker wants run (shell, interpreter one-liners, privilege, network pipes). */
export const COMMAND =
  /(?:\bsudo\s+-?\w|\brm\s+-[a-z]*[rf]|\bchmod\s+(?:[0-7]{3,4}|[ugoa]*[+-][rwx]+)\b|\bchown\s+\w|\bcurl\s+(?:-{1,2}[\w-]+\s+(?:'[^']*'\s+|"[^"]*"\s+)?)*['"]?(?:https?:\/\/|\$\(|\w+\.\w+\/)|\bwget\s+(?:-{1,2}[\w-]+\s+)*['"]?\S|\b(?:ba|z|da)?sh\s+-c\b|\bpowershell(?:\.exe)?\s+-|\bcmd(?:\.exe)?\s+\/c\b|\bpython[0-9.]*\s+-c\b|\bnode\s+-e\b|\bperl\s+-e\b|\bos\.system\s*\(|\bsubprocess\.\w+\s*\(|\bRuntime\.getRuntime\b|\bnc\s+-\w*[el]|\bncat\b|\bnetcat\b|\bmkfifo\b|\/dev\/tcp\/|\bbase64\s+(?:-d|--decode)\b|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|&&\s*echo\b|\bwhoami\b|\bcat\s+[~/.$][\w/.~${}-]+|\bcrontab\s+-|\bInvoke-(?:Expression|WebRequest)\b|\biex\s*\(|\bcertutil\s+-urlcache\b|\bexport\s+[A-Z_][A-Z0-9_]*=\S|\beval\s*\(|\$\((?:curl|wget|cat|whoami|id|date|env)\b)/;

/** An order to run something. */
export const RUN_ORDER =
  /(?:\b(?:execute|run|type|enter)\s+(?:the\s+|this\s+|these\s+)?(?:following|below|above)\s+(?:[\w-]+\s+){0,2}(?:commands?|scripts?|code|snippets?|lines?)?|\b(?:execute|run)\s+(?:this|these|the)\s+(?:[\w-]+\s+){0,2}(?:commands?|scripts?)\b|\b(?:please\s+)?(?:run|execute)\s*:|\bin (?:a|the|your) (?:terminal|shell|console)\b|\b(?:you|assistant) (?:must|should|need to|have to) (?:run|execute)\b)/;

/** Fetching code and running it. */
export const DOWNLOAD_RUN =
  /(?:\b(?:download|fetch|curl|wget)\b[^\n]{0,120}?\b(?:and|then)\s+(?:then\s+)?(?:run|execute|install|source)\b|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b)/;

/** Where data may be sent: URLs, e-mail addresses, phone numbers, IP addresses, bare hosts with a path. */
export const DESTINATION =
  /(?:\bhttps?:\/\/[^\s'"`<>)\]]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|(?:^|[\s(])\+\d[\d\s().-]{7,}\d\b|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b|\b(?:[a-z0-9_-]+\.)+(?:com|net|org|io|xyz|ru|cn|info|biz|top|site|online|app|dev|co)(?::\d+)?[/?][^\s'"`]*)/;

/** Sending or reaching out. */
export const SEND =
  /\b(?:send|sending|sends|post|posting|upload|uploading|share|sharing|deliver|relay|transfer|dispatch|beacon|push (?:it|them|this|the \w+) to|forward|forwarding|transmit|report (?:it |them |this )?to|log (?:it |them |this )?to|mirror|bcc|cc|e-?mail (?:it|them|this|a copy)|notify|submit|make (?:a|an) (?:\w+ ){0,2}request|request to|access(?! (?:keys?|tokens?|control|levels?|rights|permissions?|polic(?:y|ies)))|visit|connect to|ping|redirect|recipient|retrieve it via|get request|post request|webhook)\b/;

/** Changing a value or what something does. */
export const MODIFY =
  /\b(?:chang|modif|replac|overrid|overwrit|redirect|alter|swap|substitut|rerout|rewrit|intercept)\w*\b|\bsets? the [`'"]?\w+[`'"]? (?:parameter|argument|field|value|recipient)\b|\bautomatically (?:sets?|uses?|adds?|redirects?)\b/;

/** Going against what the user asked. */
export const AGAINST_USER =
  /(?:\bregardless of (?:the )?(?:user|users|user's)(?:'s)? (?:input|request|query|choice|selection|instructions?|wishes|preferences?|settings?)|\bregardless of (?:what|whatever) the user (?:says|asks|wants|requests|enters|specifies|types)|\bregardless of (?:the )?input\b|\b(?:ignore|override|disregard)\s+(?:any\s+|the\s+)?user(?:'s|s')?[- ]?(?:specified|provided|input|request|choice|selection|preference)|\binstead of what the user\b|\binstead of the user's\b|\bwhatever the user (?:asks|says|wants|requests|enters|specifies|types)\b|\bno matter what (?:the user|they|he|she) (?:asks?|says?|wants?|requests?|enters?|specif\w+|types?)\b|\beven (?:if|when|though) the user (?:asks|requests|says|specifies|wants|chooses|selects|enters|types|provides)\b|\birrespective of (?:the user|what the user)\b|\b(?:automatically|silently)\s+(?:be\s+)?(?:modif|chang|replac|rewrit|redirect|overrid)\w*\b[^.\n]{0,60}?\b(?:to|with|include)\s+['"`‘“])/;

/** Setting an argument to a fixed value: "set the 'ticker' parameter to 'TSLA'", "change the query to 'x'". */
export const PARAM_SET =
  /\b(?:set|sets|setting|change|changes|changing|modify|modifies|replace|replaces|override|overrides|force|forces|rewrite|rewrites|swap)\s+(?:the\s+|its\s+|every\s+|all\s+)?[`'"‘“]?[\w.-]+[`'"’”]?\s+(?:parameter\s+|argument\s+|field\s+|value\s+)?(?:to|with|into|by)\s+[`'"‘“][^`'"’”]{1,80}[`'"’”]/;

/** Words that make a fixed argument a rule for every call rather than an example. */
export const ALWAYS =
  /\b(?:always|automatically|silently|every time|each time|for (?:all|every|each) (?:requests?|calls?|queries|searches|users?)|in all cases|by default from now on)\b/;

/** Another tool run down, so the model avoids it. */
export const DISPARAGE =
  /\b(?:is|are|has become|was found to be|seems?) (?:now )?(?:\w+ )?(?:broken|unreliable|insecure|unsafe|compromised|malicious|buggy|dangerous|hacked|infected)\b|\b(?:returns?|gives?|produces?) (?:\w+ )?(?:wrong|incorrect|false|fake|inaccurate) (?:results?|data|answers?)\b|\b(?:do not|don't|never|avoid) (?:ever )?(?:use|using|call|calling|trust|trusting|invoke|invoking)\b/;

/** A condition on another tool's use: "when you use x", "before calling x", "if x is called". */
export const WHEN_OTHER =
  /\b(?:when|whenever|before|after|if|while|each time)\b[^.\n]{0,30}\b(?:use|uses|using|used|call|calls|calling|called|invoke|invokes|invoking|invoked|run|runs|running)\b/;

/** A tool that says it is gone and sends the model elsewhere. */
export const DEPRECATED_SELF =
  /\b(?:has been|have been|is|was) (?:\w+ )?(?:deprecated|disabled|discontinued|decommissioned|retired|moved|replaced|superseded|removed)\b|\b(?:no longer|not currently|temporarily (?:not )?)(?:available|supported|working|in service)\b|\bredirect (?:all |to |them )/;

/** What turns a deprecation note into a redirection attack: urgency, security scares, maintenance stories. */
export const REDIRECT_PRESSURE =
  /\b(?:temporarily|for maintenance|security (?:vulnerabilit\w+|issues?|reasons)|same (?:parameters|arguments|functionality)|enhanced (?:security|functionality)|secure (?:tool|version))\b/;

/** A tool said to have been changed: how shadowing texts announce their new rules for another tool. */
export const CHANGED_TOOL =
  /\b(?:has been|have been|was|is now) (?:\w+ )?(?:enhanced|upgraded|optimi[sz]ed|updated|modified|changed|improved|patched|reconfigured|extended)\b|\bnow uses\b/;

/** Pressure: obligations dressed as security, compliance or breakage. */
export const PRESSURE =
  /\b(?:mandatory|critical|essential|crucial|compliance|regulatory|regulations?|security (?:check|checkpoint|verification|protocol|audit|requirement)s?|verify (?:system )?integrity|required for (?:all|every|any)|otherwise[^.\n]{0,40}(?:will not|won't|fail|break)|will (?:crash|be blocked|fail)|the system (?:will|requires)|do not skip|not optional)\b/;

/** Telling the model to show the user a fixed message, or to tell the user something as fact. */
export const FIXED_MESSAGE =
  /(?:\b(?:display|state|show|say|tell|inform|present|output|print|deliver|announce|report)\b[^.\n]{0,50}?(?:message|announcement|alert|notice|warning|statement|this as|to the user|the user)?\s*:?\s*['"“‘][^'"”’]{12,}|\b(?:inform|tell|warn|notify) the user that\b)/;

/** An alarm tag: `<IMPORTANT>`, `[Important]`, `</system>` (on lowered text). */
export const ALARM_TAG =
  /<\/?(?:important|critical|hidden|system|secret|instructions?|admin|note|urgent)\b[^>]{0,40}>|\[(?:important|critical|hidden|system|urgent|note)[^\]\n]{0,30}\]/;

/** An alarm header in capitals: `IMPORTANT:`, `SYSTEM OVERRIDE:`, `SECURITY NOTICE:` (case matters: run on the text as written). */
export const ALARM_HEADER =
  /\b(?:IMPORTANT|CRITICAL|URGENT|ATTENTION|MANDATORY|SECURITY (?:ALERT|NOTICE|PROTOCOL|UPDATE)|SYSTEM (?:[A-Z]+ ?){0,2}|[A-Z]+ (?:DIRECTIVE|OVERRIDE|NOTICE|ALERT|PROTOCOL|UPDATE|NOTE))\s*:/;

/** Self-promotion aimed at the model's choice of tool. */
export const PROMOTION =
  /\b(?:world'?s (?:best|most|leading|#1)|the best and most reliable|most (?:reliable|advanced|comprehensive|accurate|trusted|sophisticated) (?:[\w-]+ ){0,3}(?:tool|engine|system|analy[sz]er|extractor|available|in the market)|trusted by (?:experts|professionals|millions|[\w ]{0,30}(?:professionals|institutions|companies|services))|used by \d+(?:\.\d+)?%|industry[- ](?:standard|leading)|award[- ]winning|\d+(?:\.\d+)?% (?:accuracy|reliability)|(?:premium|advanced|professional|ultimate|enhanced) version|superior (?:performance|accuracy|quality|[\w-]+ (?:quality|accuracy|capabilities))|(?:better|more accurate) (?:performance|results)[^.\n]{0,40}(?:than|compared to) other|always (?:use|prefer|choose) this tool|prefer this tool|use this tool (?:instead of|over|rather than) (?:any|other|the))\b/;

/** Generic references to other tools: "any other tool", "every tool call". */
export const OTHER_TOOLS =
  /\b(?:(?:any|all|every|each) other (?:tools?|functions?)|(?:every|each|all|any) (?:tool|function) calls?|(?:before|after) (?:calling|using|invoking) (?:any|every|each) (?:other )?(?:tools?|functions?)|other (?:tools?|servers?)'s? (?:calls?|results?|outputs?))\b/;

/** Calling something: how a sentence orders a tool call. */
export const CALL_VERB = /\b(?:call|calls|calling|use|using|invoke|invoking|run|trigger|execute)\b/;

/** Sequence words that make an order part of a procedure around this tool. */
export const SEQUENCE = /\b(?:first|then|also|before|after|afterwards|prior to)\b/;

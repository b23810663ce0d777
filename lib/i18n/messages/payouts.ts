import { defineMessages } from "../define";

/**
 * Batch Pix payouts. `problems` has one message per RowProblemCode and FileProblemCode of
 * lib/payout-batches/validate.ts (plus dailyLimitExceeded); placeholders: noHeader {missing} (the
 * missing column names), tooManyRows {rows} {max}, tooLarge {maxMb}, dailyLimitExceeded {available}
 * {limit} (amounts already formatted). `columns` describes each template column.
 */
export const payouts = defineMessages(
  {
    problems: {
      pixKeyRequired: "Informe a chave Pix do recebedor.",
      keyTypeUnknown:
        "Tipo de chave desconhecido. Use cpf, cnpj, email, celular ou aleatoria, ou deixe vazio para detectar pelo formato da chave.",
      keyTypeMismatch:
        "A chave é de outro tipo que o informado em tipo_chave (por exemplo, um e-mail com tipo CPF). Corrija o tipo ou deixe-o vazio.",
      keyTypeAmbiguous:
        "A chave tem 11 dígitos e pode ser um CPF ou um celular. Informe o tipo em tipo_chave (cpf ou celular) ou escreva o celular com +55.",
      keyNotReceiverDocument:
        "Atenção: a chave é um CPF ou CNPJ diferente do documento do recebedor. O dinheiro vai para o dono da chave; confira se as colunas não estão trocadas.",
      pixKeyUnrecognized: "A chave não parece um CPF, CNPJ, e-mail, celular nem chave aleatória. Confira a chave.",
      pixKeyCpfInvalid: "A chave não é um CPF válido, mas o tipo diz CPF. Confira os 11 dígitos.",
      pixKeyCnpjInvalid: "A chave não é um CNPJ válido, mas o tipo diz CNPJ. Confira os 14 caracteres.",
      pixKeyEmailInvalid: "A chave não é um e-mail válido. Use o formato nome@dominio.com.br.",
      pixKeyEmailTooLong: "Chave de e-mail longa demais: uma chave Pix de e-mail tem no máximo 77 caracteres.",
      pixKeyPhoneInvalid: "A chave não é um celular brasileiro válido. Use DDD + número, por exemplo (11) 98765-4321 ou +55 11 98765-4321.",
      pixKeyRandomInvalid: "Chave aleatória inválida. Use o formato 123e4567-e89b-12d3-a456-426614174000.",
      amountRequired: "Informe o valor.",
      amountInvalid: "Valor ilegível. Escreva como 1.234,56 ou 1234,56.",
      amountNotPositive: "O valor deve ser maior que zero.",
      amountTooManyDecimals: "Valor com mais de 2 casas decimais. Use centavos, por exemplo 10,50.",
      amountTooLarge: "Valor acima do máximo de uma transferência (R$ 99.999.999,99).",
      nameRequired: "Informe o nome do recebedor, com letras.",
      nameTooLong: "Nome longo demais: use no máximo 120 caracteres.",
      documentRequired: "Informe o CPF ou CNPJ do recebedor.",
      cpfInvalid: "CPF do recebedor inválido: os dígitos verificadores não conferem.",
      cnpjInvalid: "CNPJ do recebedor inválido: os dígitos verificadores não conferem.",
      documentInvalid:
        "O documento não é um CPF (11 dígitos) nem um CNPJ (14 caracteres). Se o CPF começa com 0, o Excel pode ter apagado o zero: formate a coluna como texto.",
      descriptionTooLong: "Descrição longa demais: use no máximo 140 caracteres.",
      referenceTooLong: "Identificador longo demais: use no máximo 100 caracteres.",
      cellIsDate: "O Excel transformou esta célula em data. Formate a coluna como texto e digite o valor de novo.",
      cellIsError: "A célula tem um erro de fórmula (por exemplo #N/A). Corrija a fórmula ou digite o valor.",
      duplicateInFile: "Linha repetida: outra linha do arquivo já paga esta chave com este valor. Apague a repetição ou mude o valor.",
      duplicateReference: "Identificador repetido: outra linha do arquivo já usa este identificador. Use um identificador por linha.",
      recentTransfer:
        "Atenção: nas últimas 24 horas já houve uma transferência para esta chave com este valor. Confira se não é pagamento em dobro.",
      empty: "O arquivo está vazio ou só tem o cabeçalho. Preencha uma linha por transferência abaixo do cabeçalho.",
      noHeader: "Não encontramos o cabeçalho com as colunas obrigatórias. Faltam: {missing}. Use o modelo ou renomeie as colunas.",
      tooManyRows: "O arquivo tem {rows} linhas; o máximo por lote é {max}. Divida o arquivo em lotes menores.",
      unreadable:
        "Não conseguimos ler o arquivo. Envie um .csv ou .xlsx (o .xls antigo não é aceito: no Excel, use Salvar como e escolha Pasta de Trabalho do Excel .xlsx).",
      tooLarge: "Arquivo grande demais: o limite é {maxMb} MB. Divida o arquivo em lotes menores.",
      tooLargeUnpacked:
        "A planilha fica grande demais quando aberta (mais de {maxMb} MB): um lote tem no máximo {max} linhas. Divida o arquivo em lotes menores.",
      dailyLimitExceeded:
        "O total do lote passa do limite diário de transferências: restam {available} de {limit} hoje. Remova linhas ou peça o aumento do limite.",
    },
    columns: {
      chave_pix: "Chave Pix do recebedor: CPF, CNPJ, e-mail, celular ou chave aleatória. Obrigatória.",
      tipo_chave: "Tipo da chave: cpf, cnpj, email, celular ou aleatoria. Opcional: vazio, o tipo é detectado pelo formato da chave.",
      valor: "Valor em reais, como 1.234,56 ou 1234,56; no máximo 2 casas decimais. Obrigatório.",
      nome: "Nome completo ou razão social do recebedor. Os acentos são removidos no envio. Obrigatório.",
      documento: "CPF ou CNPJ do recebedor, com ou sem pontuação. Obrigatório.",
      descricao: "Descrição da transferência, até 140 caracteres. Opcional.",
      identificador: "O seu código para esta linha, até 100 caracteres, único no arquivo. Opcional.",
    },
  },
  {
    problems: {
      pixKeyRequired: "Enter the receiver's Pix key.",
      keyTypeUnknown: "Unknown key type. Use cpf, cnpj, email, phone or random, or leave it empty to detect it from the key.",
      keyTypeMismatch:
        "The key is of another type than tipo_chave says (for example an e-mail with type CPF). Fix the type or leave it empty.",
      keyTypeAmbiguous:
        "The key has 11 digits and could be a CPF or a mobile number. Fill in tipo_chave (cpf or phone) or write the phone with +55.",
      keyNotReceiverDocument:
        "Warning: the key is a CPF or CNPJ other than the receiver's document. The money goes to the key's holder; check that the columns are not swapped.",
      pixKeyUnrecognized: "The key does not look like a CPF, CNPJ, e-mail, mobile number or random key. Check the key.",
      pixKeyCpfInvalid: "The key is not a valid CPF, but the type says CPF. Check the 11 digits.",
      pixKeyCnpjInvalid: "The key is not a valid CNPJ, but the type says CNPJ. Check the 14 characters.",
      pixKeyEmailInvalid: "The key is not a valid e-mail address. Use the form name@domain.com.",
      pixKeyEmailTooLong: "E-mail key too long: a Pix e-mail key has at most 77 characters.",
      pixKeyPhoneInvalid:
        "The key is not a valid Brazilian mobile number. Use area code + number, e.g. (11) 98765-4321 or +55 11 98765-4321.",
      pixKeyRandomInvalid: "Invalid random key. Use the form 123e4567-e89b-12d3-a456-426614174000.",
      amountRequired: "Enter the amount.",
      amountInvalid: "Unreadable amount. Write it as 1.234,56 or 1234,56.",
      amountNotPositive: "The amount must be greater than zero.",
      amountTooManyDecimals: "Amount with more than 2 decimal places. Use centavos, e.g. 10,50.",
      amountTooLarge: "Amount above a transfer's maximum (R$ 99.999.999,99).",
      nameRequired: "Enter the receiver's name, in letters.",
      nameTooLong: "Name too long: use at most 120 characters.",
      documentRequired: "Enter the receiver's CPF or CNPJ.",
      cpfInvalid: "Invalid receiver CPF: the check digits do not match.",
      cnpjInvalid: "Invalid receiver CNPJ: the check digits do not match.",
      documentInvalid:
        "The document is neither a CPF (11 digits) nor a CNPJ (14 characters). If the CPF starts with 0, Excel may have dropped the zero: format the column as text.",
      descriptionTooLong: "Description too long: use at most 140 characters.",
      referenceTooLong: "Identifier too long: use at most 100 characters.",
      cellIsDate: "Excel turned this cell into a date. Format the column as text and type the value again.",
      cellIsError: "The cell holds a formula error (such as #N/A). Fix the formula or type the value.",
      duplicateInFile:
        "Repeated row: another row of the file already pays this key this amount. Delete the repetition or change the amount.",
      duplicateReference: "Repeated identifier: another row of the file already uses it. Use one identifier per row.",
      recentTransfer:
        "Warning: a transfer to this key with this amount was made in the last 24 hours. Make sure this is not a double payment.",
      empty: "The file is empty or has only the header. Fill in one row per transfer below the header.",
      noHeader: "The header with the required columns was not found. Missing: {missing}. Use the template or rename the columns.",
      tooManyRows: "The file has {rows} rows; a batch takes at most {max}. Split the file into smaller batches.",
      unreadable:
        "The file could not be read. Send a .csv or .xlsx (the old .xls is not accepted: in Excel, use Save As and choose Excel Workbook .xlsx).",
      tooLarge: "File too large: the limit is {maxMb} MB. Split the file into smaller batches.",
      tooLargeUnpacked:
        "The spreadsheet is too large once opened (over {maxMb} MB): a batch takes at most {max} rows. Split the file into smaller batches.",
      dailyLimitExceeded:
        "The batch total goes over the daily transfer limit: {available} of {limit} left today. Remove rows or ask for a higher limit.",
    },
    columns: {
      chave_pix: "The receiver's Pix key: CPF, CNPJ, e-mail, mobile number or random key. Required.",
      tipo_chave:
        "The key's type: cpf, cnpj, email, phone (celular) or random (aleatoria). Optional: when empty, it is detected from the key.",
      valor: "Amount in reais, such as 1.234,56 or 1234,56; at most 2 decimal places. Required.",
      nome: "The receiver's full or company name. Accents are removed when sent. Required.",
      documento: "The receiver's CPF or CNPJ, with or without punctuation. Required.",
      descricao: "A description of the transfer, up to 140 characters. Optional.",
      identificador: "Your own code for this row, up to 100 characters, unique in the file. Optional.",
    },
  },
);

T = {
'at most %(n)s in a space with neither a major city nor a major general of yours': ('como máximo %(n)s en un espacio sin ciudad mayor ni general mayor tuyo', 'не больше %(n)s в зоне без крупного города и без вашего главного генерала'),
'at most %(n)s per province outside your unbesieged major cities': ('como máximo %(n)s por provincia fuera de tus ciudades mayores no sitiadas', 'не больше %(n)s на провинцию вне ваших неосаждённых крупных городов'),
}
